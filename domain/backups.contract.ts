/** The admin's backups (api/backup/README.md). Everything here is admin-only. */
import * as v from 'valibot';
import { BackupDownloadSchema, BackupNameParamsSchema, BackupSchema, BackupsSchema } from './backups.js';
import { endpoint } from './contract.js';

const tag = 'Backups';

export const backupsApi = {
  list: endpoint({
    method: 'GET',
    path: '/admin/backups',
    summary:
      'The backups in BACKUP_DIR (newest first, with size and counts), the schedule, and whether the newest is too old',
    tag,
    access: 'admin',
    response: BackupsSchema,
  }),
  create: endpoint({
    method: 'POST',
    path: '/admin/backups',
    summary: 'Make a backup now (409 while one is being made)',
    tag,
    access: 'admin',
    status: 201,
    response: BackupSchema,
    refusals: [409],
  }),
  download: endpoint({
    method: 'POST',
    path: '/admin/backups/{name}/download',
    summary:
      'Download one backup archive (application/gzip) with the admin’s password; it holds customers’ data ' +
      'but none of the shop’s secrets, and every admin is mailed that it was downloaded (403 wrong password, 429)',
    tag,
    access: 'admin',
    body: BackupDownloadSchema,
    refusals: [403, 409, 429],
    // The success is the archive itself; `response` describes nothing the server serializes.
    response: v.never(),
    download: 'application/gzip',
    params: BackupNameParamsSchema,
  }),
};
