/**
 * The archive's format: a gzip'd tar whose first entry is `manifest.json`,
 * then the files it lists. The manifest comes first so the admin's list reads
 * a backup's time and counts without unpacking the rest; it lists every other
 * file with its size and SHA-256, so a restore can prove the archive is whole
 * and unedited before it touches anything.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar';
import * as v from 'valibot';
import { BackupCountsSchema } from '../../domain/backups.js';

export const MANIFEST = 'manifest.json';
/**
 * `/2`: the shop's secrets are parts of their own (the `jwt-secret` file and the `shop_secrets`
 * rows, taken out of the database copy), so a copy without them can be handed out. A `/1` archive
 * holds them inside its database copy; it is still restored, never downloaded.
 */
export const FORMAT = 'storefront-backup/2';
const FORMAT_1 = 'storefront-backup/1';

/** Where each part lives inside the archive. */
export const PARTS = {
  sqlite: 'shop.db',
  postgres: 'database.pgdump',
  secret: 'jwt-secret',
  /** The rows of `shop_secrets` (VAPID pair, the newsletter's key, PostgreSQL's session secret), as JSON. */
  secrets: 'shop-secrets.json',
  media: 'media',
} as const;

/** The parts that sign as the shop: what a downloaded archive leaves out. */
export const SECRET_PARTS: readonly string[] = [PARTS.secret, PARTS.secrets];

export const SecretRowsSchema = v.array(
  v.object({ name: v.string(), value: v.string(), created_at: v.pipe(v.number(), v.integer()) }),
);
export type SecretRows = v.InferOutput<typeof SecretRowsSchema>;

const int = v.pipe(v.number(), v.integer(), v.minValue(0));

export const ManifestSchema = v.object({
  format: v.picklist([FORMAT, FORMAT_1]),
  /**
   * `included`: the secrets are parts of the archive (made on the machine); `left out`: a
   * downloaded copy, whose restore keeps the target's secrets (or makes new ones) and ends every
   * session. Absent in a `/1` archive, whose database copy holds them.
   */
  secrets: v.optional(v.picklist(['included', 'left out'])),
  /** When the backup began (ISO and ms): it holds every order acknowledged before then. */
  createdAt: v.string(),
  createdAtMs: int,
  dialect: v.picklist(['sqlite', 'postgres']),
  /** The last migration the copied database had; a restore migrates from there. */
  schemaVersion: v.string(),
  counts: BackupCountsSchema,
  files: v.array(
    v.object({
      path: v.pipe(
        v.string(),
        v.check(isSafeArchivePath, 'a file path in the manifest leaves the archive (absolute or ..)'),
      ),
      size: int,
      sha256: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
    }),
  ),
});
export type Manifest = v.InferOutput<typeof ManifestSchema>;
export type ManifestFile = Manifest['files'][number];

/** A relative path of plain segments: never absolute, never `..`, never empty, never backslashes. */
export function isSafeArchivePath(p: string): boolean {
  if (!p || p.startsWith('/') || p.includes('\\') || p.includes('\0')) return false;
  return p.split('/').every((seg) => seg !== '' && seg !== '.' && seg !== '..');
}

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/** Every regular file under `dir`, as paths relative to it with `/` (sorted, so archives are stable). */
export async function filesUnder(dir: string, prefix = ''): Promise<string[]> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const out: string[] = [];
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await filesUnder(path.join(dir, e.name), rel)));
    else if (e.isFile()) out.push(rel);
  }
  return out;
}

/**
 * Writes the archive of `staging` (which holds `manifest.json` and the files it lists) to `file`,
 * created with mode 0600: it holds customers' data, and the shop's secrets unless it is a download.
 */
export async function pack(staging: string, manifest: Manifest, file: string): Promise<void> {
  const entries = [MANIFEST, ...manifest.files.map((f) => f.path)];
  await pipeline(
    tar.c({ gzip: true, cwd: staging, portable: true, noDirRecurse: true }, entries),
    createWriteStream(file, { mode: 0o600, flags: 'wx' }),
  );
}

/**
 * The manifest of an archive, read from its first entry only (the list of backups shows time
 * and counts without unpacking). Null when the archive does not start with a readable manifest.
 */
export async function readManifest(file: string): Promise<Manifest | null> {
  let text: string | null = null;
  try {
    await new Promise<void>((resolve, reject) => {
      const source = createReadStream(file);
      const parser = new tar.Parser({
        filter: (p) => p === MANIFEST,
        onReadEntry: (entry) => {
          const chunks: Buffer[] = [];
          entry.on('data', (c: Buffer) => chunks.push(c));
          entry.on('end', () => {
            text = Buffer.concat(chunks).toString('utf8');
            // The manifest is all we came for: stop reading the (possibly large) rest.
            source.destroy();
            resolve();
          });
        },
      });
      parser.on('error', reject);
      parser.on('end', () => resolve());
      source.on('error', reject);
      source.on('close', () => resolve());
      source.pipe(parser);
    });
  } catch {
    return null;
  }
  if (text === null) return null;
  try {
    const parsed = v.safeParse(ManifestSchema, JSON.parse(text));
    return parsed.success ? parsed.output : null;
  } catch {
    return null;
  }
}

/** Why an archive cannot be restored; the message names the problem for the person restoring. */
export class ArchiveProblem extends Error {
  override name = 'ArchiveProblem';
}

/**
 * Unpacks `file` into the empty folder `into` and proves it whole: the manifest parses, every
 * file it lists is there with its size and SHA-256, and nothing else is. Throws ArchiveProblem
 * naming what does not hold (a truncated archive, an edited file, a missing or extra one).
 */
export async function unpackAndVerify(file: string, into: string): Promise<Manifest> {
  const refused: string[] = [];
  try {
    await tar.x({
      file,
      cwd: into,
      // A damaged header or a gzip stream that ends early is an error, not a warning.
      strict: true,
      // Only plain files and folders: a link in a backup could point anywhere on the machine.
      filter: (p, entry) => {
        const type = 'type' in entry ? entry.type : 'File';
        const ok = (type === 'File' || type === 'Directory') && isSafeArchivePath(p.replace(/\/$/, ''));
        if (!ok) refused.push(p);
        return ok;
      },
    });
  } catch (err) {
    throw new ArchiveProblem(
      `The archive is damaged or truncated (${(err as Error).message}); nothing was restored.`,
    );
  }
  if (refused.length)
    throw new ArchiveProblem(
      `The archive holds entries a backup never has: ${refused.slice(0, 5).join(', ')}.`,
    );
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path.join(into, MANIFEST), 'utf8'));
  } catch {
    throw new ArchiveProblem(`The archive has no readable ${MANIFEST}: it is not a backup of this shop.`);
  }
  const parsed = v.safeParse(ManifestSchema, raw);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    throw new ArchiveProblem(
      `${MANIFEST} is not valid (${v.getDotPath(issue) ?? 'manifest'}: ${issue.message}).`,
    );
  }
  const manifest = parsed.output;
  const listed = new Set(manifest.files.map((f) => f.path));
  for (const f of manifest.files) {
    const at = path.join(into, f.path);
    let size: number;
    try {
      size = (await stat(at)).size;
    } catch {
      throw new ArchiveProblem(`${f.path} is listed in the manifest but missing from the archive.`);
    }
    if (size !== f.size)
      throw new ArchiveProblem(
        `${f.path} is ${size} bytes, the manifest says ${f.size}: the file was changed.`,
      );
    if ((await sha256Of(at)) !== f.sha256)
      throw new ArchiveProblem(
        `${f.path} does not match its checksum in the manifest: the file was changed.`,
      );
  }
  const extra = (await filesUnder(into)).filter((p) => p !== MANIFEST && !listed.has(p));
  if (extra.length)
    throw new ArchiveProblem(
      `The archive holds files its manifest does not list: ${extra.slice(0, 5).join(', ')}.`,
    );
  if (!manifest.files.some((f) => f.path === PARTS[manifest.dialect]))
    throw new ArchiveProblem(`The archive has no database copy (${PARTS[manifest.dialect]}).`);
  return manifest;
}
