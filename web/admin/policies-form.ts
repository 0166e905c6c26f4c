/**
 * Settings → Policies without its screen: the words it says, and what Save sends. Pure, so the
 * tests read the same words the screen shows.
 *
 * A policy the owner has not written shows its default in the box; saving sends only the texts
 * the owner has written (kept before, or changed from the default), so an untouched default
 * stays a default and keeps following the settings it is written from.
 */
import { POLICY_KEYS, type Policies, type PolicyKey } from '../../domain/policies.js';

export const policiesTexts = {
  title: 'Policies',
  intro:
    'The pages linked from every page’s footer. Each shows your own text once you write it; until then, a default written from your settings (delivery areas, slots, the photo cake’s notice, payments and your profile), which changes when they do.',
  format:
    'Plain text: a blank line starts a new paragraph, a line starting "- " is a list item, a line starting "## " is a heading, **two stars** make bold, and https:// addresses and email addresses become links.',
  isDefault: 'Default, written from your settings',
  isOwn: 'Your text',
  unsaved: 'Changed, not saved yet',
  textLabel: (title: string) => `Text of ${title}`,
  preview: 'Preview',
  openPage: 'Open the page',
  save: 'Save policies',
  putDefaultBack: 'Put the default back',
  defaultBack: (title: string) => `${title} shows its default again.`,
  reviewed: 'I have read the policies',
  reviewedDone: 'You have read the policies.',
  reviewedSaved: 'Marked as read.',
  tooLong: 'A policy is at most 20,000 characters.',
} as const;

export const POLICY_TEXT_MAX = 20_000;

/** The texts Save sends: each kept one, and each changed from its default; an empty box is the default. */
export function writtenPolicies(
  draft: Record<PolicyKey, string>,
  defaults: Record<PolicyKey, string>,
  saved: Policies,
): Policies {
  const out: Policies = {};
  for (const key of POLICY_KEYS) {
    const text = draft[key];
    if (!text.trim()) continue;
    if (saved[key] !== undefined || text !== defaults[key]) out[key] = text;
  }
  return out;
}

/** The saved texts without one: its default comes back. */
export function withoutPolicy(saved: Policies, key: PolicyKey): Policies {
  const { [key]: _gone, ...rest } = saved;
  return rest;
}

/** The first policy over the length, for its field's message before anything is sent. */
export function tooLongPolicy(draft: Record<PolicyKey, string>): PolicyKey | null {
  return POLICY_KEYS.find((k) => draft[k].length > POLICY_TEXT_MAX) ?? null;
}
