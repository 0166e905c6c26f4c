import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from '../../api/logger.js';

describe('the server logger (api/logger.ts)', () => {
  it('writes pino JSON in production and in tests: no transport, no prettifier', () => {
    for (const mode of ['production', 'test'] as const) {
      const options = loggerOptions(mode);
      expect(options).not.toHaveProperty('transport');
      expect(options.level).toBe('info');
    }
  });

  it('makes development logs readable through pino-pretty, which is installed', () => {
    const options = loggerOptions('development');
    expect(options).toMatchObject({ level: 'info', transport: { target: 'pino-pretty' } });
    expect(() => createRequire(import.meta.url).resolve('pino-pretty')).not.toThrow();
  });

  it('redacts authorization and cookie headers in every mode', () => {
    for (const mode of ['production', 'development', 'test'] as const) {
      expect(loggerOptions(mode).redact).toMatchObject({
        paths: expect.arrayContaining(['req.headers.authorization', 'req.headers.cookie']),
      });
    }
  });
});
