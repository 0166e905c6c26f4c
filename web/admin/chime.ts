/**
 * The sound of a new order on an open orders list or dashboard: two short notes made with the
 * Web Audio API (no file to download or cache), and the admin's choice, kept on this device.
 *
 * Browsers start sound only in a page the user has interacted with (a click or a key since it
 * loaded): an admin who signed in on this page already has; after a reload the first click on the
 * page lets it play (`unlockChime`), and until then the screen says so.
 */

const SOUND_KEY = 'adminNewOrderSound';

/** On unless the admin turned it off on this device. */
export function chimeWanted(): boolean {
  try {
    return localStorage.getItem(SOUND_KEY) !== 'off';
  } catch {
    return true;
  }
}

export function setChimeWanted(on: boolean): void {
  try {
    if (on) localStorage.removeItem(SOUND_KEY);
    else localStorage.setItem(SOUND_KEY, 'off');
  } catch {
    // Private mode: the choice lasts as long as the page.
  }
}

/** Whether the browser would play a sound now (false until the first click after a reload). */
export function chimeAllowed(): boolean {
  return globalThis.navigator?.userActivation?.hasBeenActive ?? true;
}

let context: AudioContext | null = null;

function audio(): AudioContext | null {
  // Made only once the page may play: made earlier, the browser would keep it silent and warn.
  if (!chimeAllowed()) return null;
  if (!context) {
    const Made =
      globalThis.AudioContext ??
      (globalThis as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!Made) return null;
    context = new Made();
  }
  return context;
}

/** Readies the sound from a click or key (the gesture the browser asks for). */
export function unlockChime(): void {
  const c = audio();
  if (c?.state === 'suspended') void c.resume().catch(() => undefined);
}

/** A soft two-note chime; false when the browser would not play it. */
export async function chime(): Promise<boolean> {
  const c = audio();
  if (!c) return false;
  if (c.state !== 'running') {
    try {
      await c.resume();
    } catch {
      return false;
    }
  }
  if (c.state !== 'running') return false;
  const at = c.currentTime;
  for (const [offset, frequency] of [
    [0, 880],
    [0.2, 1318.5],
  ] as const) {
    const note = c.createOscillator();
    const loudness = c.createGain();
    note.type = 'sine';
    note.frequency.value = frequency;
    loudness.gain.setValueAtTime(0.0001, at + offset);
    loudness.gain.exponentialRampToValueAtTime(0.25, at + offset + 0.02);
    loudness.gain.exponentialRampToValueAtTime(0.0001, at + offset + 0.7);
    note.connect(loudness).connect(c.destination);
    note.start(at + offset);
    note.stop(at + offset + 0.75);
  }
  return true;
}
