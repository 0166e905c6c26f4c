/**
 * Why the shopper is sent to /login ("log in first", "your session ended"). In
 * the first bundle on its own: the app's session watch sets it, while the
 * guards that also set it and the login screen that shows it are lazy chunks.
 */
export type LoginNotice = 'loginFirst' | 'sessionEnded';
export interface LoginState {
  notice?: LoginNotice;
}

/**
 * The reason is also kept here until the login screen takes it: a later
 * navigation to /login without state (another part of the app reacting to the
 * same ended session) must not lose it before that lazy screen has loaded.
 */
let pendingNotice: LoginNotice | null = null;
export function setLoginNotice(notice: LoginNotice | undefined): void {
  if (notice) pendingNotice = notice;
}
export function takeLoginNotice(): LoginNotice | null {
  const notice = pendingNotice;
  pendingNotice = null;
  return notice;
}
