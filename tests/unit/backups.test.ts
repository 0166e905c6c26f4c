import { describe, expect, it } from 'vitest';
import {
  agoText,
  backupNameAt,
  backupWarning,
  durationText,
  isBackupName,
  parseDuration,
  sizeText,
} from '../../domain/backups.js';

/** The pure rules of backups (domain/backups.ts): names, durations, ages and the dashboard's warning. */
const H = 3_600_000;

describe('backup rules', () => {
  it('names a backup by its UTC start, and knows only such names', () => {
    const at = Date.UTC(2026, 10, 25, 9, 30, 1, 500);
    expect(backupNameAt(at)).toBe('backup-20261125-093001.tar.gz');
    expect(backupNameAt(at, 2)).toBe('backup-20261125-093001-2.tar.gz');
    expect(isBackupName('backup-20261125-093001.tar.gz')).toBe(true);
    expect(isBackupName('backup-20261125-093001-2.tar.gz')).toBe(true);
    for (const bad of [
      '../backup-20261125-093001.tar.gz',
      'backup-20261125-093001.tar.gz/..',
      'backup-20261125-093001.tar',
      'jwt-secret',
      'backup-20261125-093001.tar.gz\n',
      '',
    ])
      expect(isBackupName(bad), bad).toBe(false);
  });

  it('reads BACKUP_EVERY durations', () => {
    expect(parseDuration('30m')).toBe(30 * 60_000);
    expect(parseDuration('6h')).toBe(6 * H);
    expect(parseDuration('1d')).toBe(24 * H);
    expect(parseDuration(' 2s ')).toBe(2000);
    for (const bad of ['0m', 'daily', '6', 'h', '1.5h', '-1d', '1w'])
      expect(parseDuration(bad), bad).toBeNull();
    expect(durationText(6 * H)).toBe('6 hours');
    expect(durationText(24 * H)).toBe('1 day');
    expect(durationText(90 * 60_000)).toBe('90 minutes');
  });

  it('says how long ago, and sizes for people', () => {
    const now = Date.UTC(2026, 10, 25, 12);
    expect(agoText(now - 20_000, now)).toBe('just now');
    expect(agoText(now - 60_000, now)).toBe('1 minute ago');
    expect(agoText(now - 3 * H - 5 * 60_000, now)).toBe('3 hours ago');
    expect(agoText(now - 3 * 24 * H, now)).toBe('3 days ago');
    expect(sizeText(512)).toBe('512 B');
    expect(sizeText(1536)).toBe('1.5 KB');
    expect(sizeText(1_047_913)).toBe('1023 KB');
    expect(sizeText(1_048_500)).toBe('1.0 MB');
  });

  it('warns when the newest is older than two periods, or none exists while scheduled', () => {
    const now = Date.UTC(2026, 10, 25, 12);
    expect(backupWarning(null, null, now)).toBeNull();
    expect(backupWarning(now - 100 * H, null, now)).toBeNull();
    expect(backupWarning(null, 6 * H, now)).toBe(
      'No backup has been made yet, though backups are scheduled.',
    );
    expect(backupWarning(now - 11 * H, 6 * H, now)).toBeNull();
    expect(backupWarning(now - 13 * H, 6 * H, now)).toBe(
      'The newest backup is 13 hours ago: older than two scheduled periods.',
    );
  });
});
