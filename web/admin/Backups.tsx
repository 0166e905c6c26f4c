import { useEffect, useState } from 'react';
import { adminMessages } from '../../domain/admin-messages.js';
import { backupsApi } from '../../domain/backups.contract.js';
import {
  agoText,
  type Backup,
  type Backups as BackupsData,
  backupTimeText,
  durationText,
  sizeText,
} from '../../domain/backups.js';
import { ApiError } from '../api/client.js';
import { useNotify } from '../hooks/useAlerts.js';
import { useAdminCall, useAdminQuery } from './connection.js';
import { download } from './download.js';
import { LoadError, Loading, Screen } from './ui.js';

/**
 * The shop's backups (issue 27; api/backup/README.md): what is in BACKUP_DIR, the schedule, a
 * warning when the newest is too old, a backup now, and a download of any one (to keep a copy
 * off the machine). Restoring is a command on the server (`npm run restore`), never a button:
 * it replaces the shop's data and needs the shop stopped.
 */
export default function Backups() {
  const { data, error, loading, reload } = useAdminQuery(backupsApi.list, {}, 'backups');
  const adminCall = useAdminCall();
  const notify = useNotify();
  const [making, setMaking] = useState(false);

  const backUpNow = async () => {
    setMaking(true);
    try {
      const res = await adminCall(backupsApi.create);
      notify(adminMessages.backupMade(res.data?.name ?? ''), 'success');
      reload();
    } catch (err) {
      notify(err instanceof ApiError && !err.offline ? err.message : adminMessages.loadFailed, 'error');
    } finally {
      setMaking(false);
    }
  };

  // A backup the schedule (or another admin) is making: look again until it is listed.
  useEffect(() => {
    if (!data?.running) return;
    const timer = setTimeout(reload, 2000);
    return () => clearTimeout(timer);
  }, [data, reload]);

  const busy = making || Boolean(data?.running);
  return (
    <Screen
      title="Backups"
      actions={
        <button
          type="button"
          className="btn btn--primary"
          onClick={backUpNow}
          disabled={busy || Boolean(data?.unavailable)}
          aria-busy={busy}
        >
          {busy ? 'Backing up...' : 'Back up now'}
        </button>
      }
    >
      {error && <LoadError text={error} onRetry={reload} />}
      {loading && !data && <Loading />}
      {data && <BackupList data={data} />}
    </Screen>
  );
}

function BackupList({ data }: { data: BackupsData }) {
  return (
    <>
      {data.warning && (
        <div className="admin-banner admin-banner--warn" role="status" data-testid="backup-warning">
          {data.warning}
        </div>
      )}
      {data.unavailable && (
        <div className="admin-banner admin-banner--error" role="status">
          {data.unavailable}
        </div>
      )}
      <section className="admin-panel" aria-labelledby="backup-schedule-title">
        <h2 id="backup-schedule-title">Schedule</h2>
        <p data-testid="backup-schedule">
          {data.everyMs === null
            ? 'No schedule: backups are made only with this button or npm run backup (set BACKUP_EVERY, such as 1d, to have the shop make them).'
            : // "every day", "every 6 hours"
              `A backup every ${durationText(data.everyMs).replace(/^1 /, '')}; the newest ${data.keep} are kept.`}
        </p>
        <p className="muted">
          Download a backup now and then and keep it off this machine: a backup on the same disk is lost with
          it. Restoring is done on the server with <code>npm run restore</code>.
        </p>
      </section>
      {data.backups.length === 0 ? (
        <p className="muted">{adminMessages.noBackups}</p>
      ) : (
        <div className="admin-table-wrap">
          <table className="admin-table admin-table--cards" data-testid="backup-table">
            <caption className="visually-hidden">Backups, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Made</th>
                <th scope="col">Size</th>
                <th scope="col">Products</th>
                <th scope="col">Orders</th>
                <th scope="col">Users</th>
                <th scope="col">
                  <span className="visually-hidden">Download</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.backups.map((b) => (
                <BackupRow key={b.name} backup={b} now={data.now} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

function BackupRow({ backup: b, now }: { backup: Backup; now: number }) {
  const notify = useNotify();
  const [saving, setSaving] = useState(false);
  const save = async () => {
    setSaving(true);
    try {
      const blob = await download(backupsApi.download, { name: b.name });
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = b.name;
      a.click();
      // The browser has started saving once click() returns; the object URL can go a little later.
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      notify(adminMessages.backupDownloaded(b.name), 'success');
    } catch (err) {
      notify(err instanceof ApiError && !err.offline ? err.message : adminMessages.loadFailed, 'error');
    } finally {
      setSaving(false);
    }
  };
  return (
    <tr data-testid="backup-row">
      <td data-label="Made">
        <span>
          <time dateTime={new Date(b.createdAt).toISOString()}>{backupTimeText(b.createdAt)}</time>{' '}
          <span className="muted">({agoText(b.createdAt, now)})</span>
        </span>
      </td>
      <td data-label="Size">{sizeText(b.size)}</td>
      <td data-label="Products">{b.counts.products}</td>
      <td data-label="Orders">{b.counts.orders}</td>
      <td data-label="Users">{b.counts.users}</td>
      <td>
        <button
          type="button"
          className="btn"
          onClick={save}
          disabled={saving}
          aria-label={`Download the backup of ${backupTimeText(b.createdAt)}`}
        >
          {saving ? 'Downloading...' : 'Download'}
        </button>
      </td>
    </tr>
  );
}
