/**
 * Web Push in a browser test: the page's `pushManager` answered by a stand-in (Chromium's own push
 * service is out of reach here), with a device subscription as a push service would hand it out.
 * The endpoints are on push.example.test: a shop started with `PUSH_HOSTS=push.example.test`
 * takes them, and its sends there fail to resolve and wait for a retry. A test delivers what the
 * server queued to the worker through the DevTools protocol (`ServiceWorker.deliverPushMessage`).
 */
import { createECDH, randomBytes, randomUUID } from 'node:crypto';

export interface DeviceSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** A device's subscription as a push service would hand it out: a P-256 key and a 16-byte secret. */
export function deviceSubscription(): DeviceSubscription {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint: `https://push.example.test/device/${randomUUID()}`,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  };
}

/**
 * Chromium's own push service is out of reach here: an incognito context (every `newContext`)
 * refuses `pushManager.subscribe` at once ("permission denied"), and a profile on disk waits on
 * Google's servers for minutes. So the page's `subscribe` answers with `device`'s subscription,
 * and records what the page asked for (the options, and the key as base64url) for the test to
 * check. Everything else (the permission, the worker, push delivery, notifications) is
 * Chromium's own. A string, not a function: the test runner's transform would rename helpers.
 */
export function standInPushService(device: DeviceSubscription): string {
  return `(() => {
    const device = ${JSON.stringify(device)};
    const calls = [];
    window.__pushCalls = calls;
    // A browser keeps a subscription across page loads: so does the stand-in, in the origin's storage.
    const made = (bytes) => ({
      endpoint: device.endpoint,
      expirationTime: null,
      options: { userVisibleOnly: true, applicationServerKey: bytes.slice().buffer },
      toJSON() { return { endpoint: device.endpoint, expirationTime: null, keys: device.keys }; },
      async unsubscribe() { current = null; localStorage.removeItem('__pushKey'); return true; },
    });
    const kept = localStorage.getItem('__pushKey');
    let current = kept ? made(new Uint8Array(JSON.parse(kept))) : null;
    PushManager.prototype.subscribe = async function (options) {
      const raw = options.applicationServerKey;
      // A BufferSource, or the key as base64url text (both are the Push API's).
      const bytes = typeof raw === 'string'
        ? Uint8Array.from(atob(raw.split('-').join('+').split('_').join('/')), (c) => c.charCodeAt(0))
        : raw instanceof ArrayBuffer ? new Uint8Array(raw) : new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength);
      const key = btoa(String.fromCharCode(...bytes)).split('+').join('-').split('/').join('_').split('=').join('');
      calls.push({ userVisibleOnly: options.userVisibleOnly, key });
      current = made(bytes);
      localStorage.setItem('__pushKey', JSON.stringify([...bytes]));
      return current;
    };
    PushManager.prototype.getSubscription = async function () { return current; };
  })();`;
}
