import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ScreenShells } from '../../api/pages/screen-shells.js';

/** A build's folder as Vite and the shells' step write it: the manifest, the shells, the stylesheets. */
function build(css: Record<string, string>, shells: Record<string, string> | null): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'shells-'));
  mkdirSync(path.join(dir, '.vite'));
  mkdirSync(path.join(dir, 'assets'));
  for (const [file, text] of Object.entries(css)) writeFileSync(path.join(dir, 'assets', file), text);
  const manifest = {
    'main.tsx': { file: 'assets/index.js', isEntry: true, css: ['assets/app.css'] },
    'account/Login.tsx': {
      file: 'assets/Login.js',
      imports: ['_form.js', 'main.tsx'],
      css: ['assets/account.css'],
    },
    '_form.js': { file: 'assets/form.js', css: ['assets/form.css'] },
  };
  writeFileSync(path.join(dir, '.vite', 'manifest.json'), JSON.stringify(manifest));
  if (shells) writeFileSync(path.join(dir, '.vite', 'screen-shells.json'), JSON.stringify(shells));
  return dir;
}

const dirs: string[] = [];
const made = (...args: Parameters<typeof build>) => {
  const dir = build(...args);
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the screen shells the server writes', () => {
  it("inline the stylesheets the screen's code brings, not the entry's, before the markup", () => {
    const dir = made(
      { 'app.css': 'body{margin:0}', 'account.css': '.account{margin:0}', 'form.css': '.field{gap:0}' },
      { '/login': '<h1>Login</h1>' },
    );
    const shells = ScreenShells.read(dir);
    expect(shells.forPath('/login')).toBe(
      '<div class="shell-screen" aria-hidden="true" inert><style>.account{margin:0}.field{gap:0}</style><h1>Login</h1></div>',
    );
    expect(shells.forPath('/LOGIN/')).toBe(shells.forPath('/login'));
    expect(shells.forPath('/register')).toBe('');
  });

  it('refuse a stylesheet that cannot stand inline: a relative url() or the end of the element', () => {
    for (const css of ['.a{background:url(pic.png)}', '.a{content:"</style>"}']) {
      const dir = made({ 'app.css': '', 'account.css': css, 'form.css': '' }, { '/login': '<h1>Login</h1>' });
      expect(() => ScreenShells.read(dir)).toThrow(/cannot be written inline/);
    }
    const data = made(
      { 'app.css': '', 'account.css': '.a{background:url(data:image/svg+xml,x)}', 'form.css': '' },
      { '/login': '<h1>Login</h1>' },
    );
    expect(ScreenShells.read(data).forPath('/login')).toContain('url(data:image/svg+xml,x)');
  });

  it('are none for a build without them', () => {
    const dir = made({ 'app.css': '', 'account.css': '', 'form.css': '' }, null);
    expect(ScreenShells.read(dir).forPath('/login')).toBe('');
    expect(ScreenShells.read(path.join(dir, 'nowhere')).markup()).toBe('');
  });
});
