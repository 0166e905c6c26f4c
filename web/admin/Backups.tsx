import { type FormEvent, useEffect, useId, useState } from 'react';
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
import { useModal } from './dialogs.js';
import { download } from './download.js';
import { LoadError, Loading, Screen } from './ui.js';

/**
 * The shop's backups (api/backup/README.md): what is in BACKUP_DIR, the schedule, a
 * warning when the newest is too old, a backup now, and a download of any one (to keep a copy
 * off the machine). A download asks the admin's password again, and every admin is mailed that it
 * happened; it carries the customers' data but none of the shop's secrets. Restoring is a
 * command on the server (`npm run restore`), never a button: it replaces the shop's data and
 * needs the shop stopped.
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
  const [asking, setAsking] = useState<Backup | null>(null);
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
                <BackupRow key={b.name} backup={b} now={data.now} onDownload={() => setAsking(b)} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <DownloadDialog backup={asking} onDone={() => setAsking(null)} />
    </>
  );
}

/**
 * The password asked again before a backup leaves the machine. A wrong one (403), too many tries
 * (429) or a missing one is said in the dialog, which stays open; the archive is saved once the
 * server has sent it.
 */
function DownloadDialog({ backup, onDone }: { backup: Backup | null; onDone: () => void }) {
  const ref = useModal(backup !== null);
  const notify = useNotify();
  const ids = useId();
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const close = () => {
    setPassword('');
    setError('');
    onDone();
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!backup) return;
    setBusy(true);
    setError('');
    try {
      const blob = await download(backupsApi.download, { name: backup.name }, undefined, undefined, {
        password,
      });
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = backup.name;
      a.click();
      // The browser has started saving once click() returns; the object URL can go a little later.
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      notify(adminMessages.backupDownloaded(backup.name), 'success');
      close();
    } catch (err) {
      setError(err instanceof ApiError && !err.offline ? err.message : adminMessages.loadFailed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <dialog
      ref={ref}
      className="admin-dialog"
      aria-labelledby={`${ids}-title`}
      aria-describedby={`${ids}-what`}
      onCancel={(e) => {
        e.preventDefault();
        if (!busy) close();
      }}
    >
      <form onSubmit={submit}>
        <h2 id={`${ids}-title`}>Download backup</h2>
        <p id={`${ids}-what`}>
          {backup ? `The backup of ${backupTimeText(backup.createdAt)} ` : 'The backup '}
          holds every customer’s name, contact details, addresses and orders, but none of the shop’s secrets.
          Keep it somewhere safe. Every admin is emailed that it was downloaded.
        </p>
        <label className="admin-field">
          <span>Your password</span>
          <input
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${ids}-error` : undefined}
            data-testid="backup-password"
          />
        </label>
        {error && (
          <p id={`${ids}-error`} className="admin-error" role="alert">
            {error}
          </p>
        )}
        <div className="admin-dialog__actions">
          <button type="button" className="btn" onClick={close} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="btn btn--primary" disabled={busy} aria-busy={busy}>
            {busy ? 'Downloading...' : 'Download'}
          </button>
        </div>
      </form>
    </dialog>
  );
}

function BackupRow({ backup: b, now, onDownload }: { backup: Backup; now: number; onDownload: () => void }) {
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
          onClick={onDownload}
          aria-haspopup="dialog"
          aria-label={`Download the backup of ${backupTimeText(b.createdAt)}`}
        >
          Download
        </button>
      </td>
    </tr>
  );
}
