/* eslint-disable @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The n8n runtime's installer from its lock file (testbed/runtime/lockfile-install.ts): what npm would
 * install where, the tarballs' integrity, the archive read as npm reads it (files and folders
 * only, nothing outside the package folder, npm's modes and its .gitignore rule) and `.bin`.
 * That the whole runtime comes out as npm lays it out was checked file by file against
 * `npm install` (docs/development.md, "What `npm test` does on a fresh machine").
 */
import { createHash } from 'node:crypto';
import {
	existsSync,
	lstatSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	readlinkSync,
	rmSync,
	statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';

import fc from 'fast-check';

import {
	closure,
	extract,
	linkBins,
	plan,
	tarEntries,
	Unsupported,
	verified,
	type Lock,
} from '../../testbed/runtime/lockfile-install';
import { sqliteBuild } from '../../testbed/runtime/install';
import { hostileString, propertyParameters } from '../helpers/property';

const LINUX = { os: 'linux', cpu: 'x64', libc: 'glibc' };
const REGISTRY = 'https://registry.example/';
const sha = (b: Buffer) => `sha512-${createHash('sha512').update(b).digest('base64')}`;

interface Entry {
	name: string;
	body?: string;
	type?: string;
	mode?: number;
}

/** A tar archive (ustar headers; a PAX header for names over 100 bytes) of `entries`. */
function tar(entries: Entry[]): Buffer {
	const blocks: Buffer[] = [];
	const header = (name: string, size: number, type: string, mode: number) => {
		const h = Buffer.alloc(512);
		h.write(name.slice(0, 100), 0, 'utf8');
		h.write(`${mode.toString(8).padStart(7, '0')}\0`, 100);
		h.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
		h.write(type, 156);
		h.write('ustar\0', 257);
		return h;
	};
	const pad = (b: Buffer) => Buffer.concat([b, Buffer.alloc((512 - (b.length % 512)) % 512)]);
	for (const e of entries) {
		const body = Buffer.from(e.body ?? '');
		if (Buffer.byteLength(e.name) > 100) {
			const rec = ` path=${e.name}\n`;
			let len = Buffer.byteLength(rec) + 2;
			if (String(len).length + Buffer.byteLength(rec) !== len)
				len = String(len + 1).length + Buffer.byteLength(rec);
			const pax = Buffer.from(`${len}${rec}`);
			blocks.push(header('PaxHeader', pax.length, 'x', 0o644), pad(pax));
		}
		blocks.push(
			header(e.name, e.type === '5' ? 0 : body.length, e.type ?? '0', e.mode ?? 0o644),
			pad(body),
		);
	}
	return Buffer.concat([...blocks, Buffer.alloc(1024)]);
}

/** Every file and link under `dir`, relative, with its mode (links as `-> target`). */
function tree(dir: string): string[] {
	const out: string[] = [];
	const walk = (d: string) => {
		for (const name of readdirSync(d)) {
			const p = join(d, name);
			const s = lstatSync(p);
			if (s.isSymbolicLink()) out.push(`${relative(dir, p)} -> ${readlinkSync(p)}`);
			else if (s.isDirectory()) walk(p);
			else out.push(`${relative(dir, p)} ${(s.mode & 0o777).toString(8)}`);
		}
	};
	walk(dir);
	return out.sort();
}

let scratch: string;
beforeEach(() => {
	scratch = mkdtempSync(join(tmpdir(), 'bp-lockfile-'));
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

describe('plan: what npm installs from a lock file, and where', () => {
	const lock: Lock = {
		packages: {
			'': { name: 'runtime' } as never,
			'node_modules/a': { version: '1.0.0', integrity: 'sha512-AA==', bin: 'cli.js' },
			'node_modules/@s/b': { version: '2.0.0', integrity: 'sha512-BB==' },
			'node_modules/a/node_modules/c': { version: '3.0.0', integrity: 'sha512-CC==' },
			'node_modules/alias': { name: 'real', version: '4.0.0', integrity: 'sha512-DD==' },
			'node_modules/gone': { version: '1.0.0', integrity: 'sha512-EE==', extraneous: true },
			'node_modules/mac': {
				version: '1.0.0',
				integrity: 'sha512-FF==',
				os: ['darwin'],
				optional: true,
			},
			'node_modules/musl': {
				version: '1.0.0',
				integrity: 'sha512-GG==',
				os: ['linux'],
				cpu: ['x64'],
				libc: ['musl'],
				optional: true,
			},
			'node_modules/notwin': { version: '1.0.0', integrity: 'sha512-HH==', os: ['!win32'] },
			'node_modules/a/node_modules/bundled': { version: '1.0.0', inBundle: true },
		},
	};

	it('skips extraneous, bundled and other platforms’ optional packages; names each tarball as the registry does', () => {
		const p = plan(lock, REGISTRY, LINUX);
		expect(p.map((x) => [x.path, x.url])).toEqual([
			['node_modules/a', 'https://registry.example/a/-/a-1.0.0.tgz'],
			['node_modules/@s/b', 'https://registry.example/@s/b/-/b-2.0.0.tgz'],
			['node_modules/a/node_modules/c', 'https://registry.example/c/-/c-3.0.0.tgz'],
			['node_modules/alias', 'https://registry.example/real/-/real-4.0.0.tgz'],
			['node_modules/notwin', 'https://registry.example/notwin/-/notwin-1.0.0.tgz'],
		]);
		expect(p[0].bin).toEqual({ a: 'cli.js' });
		// On macOS the darwin one comes in and the musl one stays out.
		expect(
			plan(lock, REGISTRY, { os: 'darwin', cpu: 'arm64', libc: undefined }).map((x) => x.path),
		).toContain('node_modules/mac');
	});

	it('leaves to npm what it does not do as npm would: a link, a git dependency, no integrity, a required package for another platform, a path with ..', () => {
		const one =
			(e: Record<string, unknown>, path = 'node_modules/x') =>
			() =>
				plan(
					{ packages: { [path]: { version: '1.0.0', integrity: 'sha512-AA==', ...e } } },
					REGISTRY,
					LINUX,
				);
		expect(one({ link: true })).toThrow(Unsupported);
		expect(one({ resolved: 'git+ssh://git@github.com/x/y.git' })).toThrow(Unsupported);
		expect(one({ integrity: undefined })).toThrow(Unsupported);
		expect(one({ integrity: 'sha1-AA==' })).toThrow(Unsupported);
		expect(one({ os: ['darwin'] })).toThrow(Unsupported);
		expect(one({}, 'node_modules/../x')).toThrow(Unsupported);
		expect(one({}, 'lib/x')).toThrow(Unsupported);
		expect(one({ resolved: 'https://mirror.example/x.tgz' })()[0].url).toBe(
			'https://mirror.example/x.tgz',
		);
	});

	it('closure: a package and what it needs, each found in the nearest node_modules up from its dependent', () => {
		const l: Lock = {
			packages: {
				'node_modules/sqlite3': { version: '5', dependencies: { tar: '^6', gyp: '^1' } },
				'node_modules/sqlite3/node_modules/tar': { version: '6', dependencies: { chownr: '^2' } },
				'node_modules/tar': { version: '7' },
				'node_modules/chownr': { version: '2' },
				'node_modules/gyp': { version: '1', optionalDependencies: { missing: '1' } },
				'node_modules/other': { version: '1' },
			},
		};
		expect([...closure(l, 'node_modules/sqlite3')].sort()).toEqual([
			'node_modules/chownr',
			'node_modules/gyp',
			'node_modules/sqlite3',
			'node_modules/sqlite3/node_modules/tar',
		]);
	});
});

describe('the tarballs', () => {
	it('a tarball is accepted only with the sha512 the lock names', () => {
		const b = Buffer.from('tarball bytes');
		expect(verified(b, sha(b))).toBe(true);
		expect(verified(b, `sha1-xyz ${sha(b)}`)).toBe(true);
		expect(verified(Buffer.from('tarball byteS'), sha(b))).toBe(false);
		expect(verified(b, 'sha1-AAAA')).toBe(false);
		expect(verified(b, '')).toBe(false);
	});

	it('extracts files and folders with npm’s modes, long names, .gitignore kept as .npmignore; no link, no path outside the folder', () => {
		const long = `package/${'deep/'.repeat(30)}file.js`;
		const tgz = gzipSync(
			tar([
				{ name: 'package/', type: '5', mode: 0o700 },
				{ name: 'package/package.json', body: '{"name":"x"}', mode: 0o600 },
				{ name: 'package/bin/cli.js', body: '#!/usr/bin/env node', mode: 0o700 },
				{ name: 'package/.gitignore', body: 'dist' },
				{ name: 'package/sub/.npmignore', body: 'a' },
				{ name: 'package/sub/.gitignore', body: 'b' },
				{ name: long, body: 'long' },
				{ name: 'package/../../escaped', body: 'x' },
				{ name: '/etc/absolute', body: 'x' },
				{ name: 'package/link', type: '2' },
				{ name: 'package/hard', type: '1' },
				{ name: 'package/fifo', type: '6' },
			]),
		);
		const folder = join(scratch, 'node_modules', 'x');
		expect(extract(tgz, folder)).toBe(5);
		expect(tree(folder)).toEqual(
			[
				'.npmignore 644',
				'bin/cli.js 744', // npm: (mode | 0666) & ~umask; its bins get 0755 when linked
				`${'deep/'.repeat(30)}file.js 644`,
				'package.json 644',
				'sub/.npmignore 644',
			].sort(),
		);
		expect(readFileSync(join(folder, 'sub', '.npmignore'), 'utf8')).toBe('a');
		expect(existsSync(join(scratch, 'escaped'))).toBe(false);
		expect(statSync(folder).mode & 0o777).toBe(0o755);
	});

	it('links each bin into the .bin of the node_modules folder that holds the package', () => {
		const root = scratch;
		extract(
			gzipSync(tar([{ name: 'package/cli.js', body: 'x', mode: 0o644 }])),
			join(root, 'node_modules', '@s', 'tool'),
		);
		extract(
			gzipSync(tar([{ name: 'package/c.js', body: 'x' }])),
			join(root, 'node_modules', 'a', 'node_modules', 'c'),
		);
		linkBins(root, {
			path: 'node_modules/@s/tool',
			url: '',
			integrity: '',
			bin: { tool: './cli.js', alias: 'cli.js', escape: '../../x' },
		});
		linkBins(root, {
			path: 'node_modules/a/node_modules/c',
			url: '',
			integrity: '',
			bin: { c: 'c.js' },
		});
		expect(readlinkSync(join(root, 'node_modules', '.bin', 'tool'))).toBe('../@s/tool/cli.js');
		expect(readlinkSync(join(root, 'node_modules', '.bin', 'alias'))).toBe('../@s/tool/cli.js');
		expect(existsSync(join(root, 'node_modules', '.bin', 'escape'))).toBe(false);
		expect(readlinkSync(join(root, 'node_modules', 'a', 'node_modules', '.bin', 'c'))).toBe(
			'../c/c.js',
		);
		expect(statSync(join(root, 'node_modules', '@s', 'tool', 'cli.js')).mode & 0o777).toBe(0o755);
	});

	it('property: whatever names an archive holds, nothing is written outside the package folder', () => {
		const part = fc.oneof(hostileString(), fc.constantFrom('..', '.', '', 'a', '..\\..', '%2e%2e'));
		fc.assert(
			fc.property(
				fc.array(fc.array(part, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 8 }),
				(names) => {
					const dir = mkdtempSync(join(scratch, 'p-'));
					const folder = join(dir, 'node_modules', 'x');
					const entries = names.map((parts) => ({
						name: parts.join('/').replace(/\0/g, ''),
						body: 'x',
					}));
					try {
						extract(gzipSync(tar(entries)), folder);
					} catch {
						// a name that cannot be a file here (a file where a folder is) fails the install, which falls back to npm
					}
					const outside = tree(dir).filter((f) => !f.startsWith(join('node_modules', 'x')));
					expect(outside).toEqual([]);
					for (const e of tarEntries(tar(entries))) expect(e.path.split('/')).not.toContain('..');
				},
			),
			propertyParameters(200),
		);
	});
});

describe("sqlite3's compile: against the system's SQLite when it is there and recent enough, else its bundled source", () => {
	const header = (v: string) =>
		`/* ... */\n#define SQLITE_VERSION        "${v}"\n#define SQLITE_VERSION_NUMBER 3040001\n`;

	it("links Debian 12's SQLite 3.40.1 and newer ones: only the binding compiles", () => {
		for (const v of ['3.40.0', '3.40.1', '3.46.0', '4.0.0', '3.9007199254740993.0']) {
			const b = sqliteBuild(header(v), true, undefined);
			expect(b).toEqual({
				env: { CFLAGS: '-O1', CXXFLAGS: '-O1', JOBS: '2', npm_config_sqlite: '/usr' },
				sqlite: `system ${v}`,
			});
		}
	});

	it('compiles the bundled SQLite without a header, without the library, with an older or unreadable version, or when BP_SQLITE=bundled', () => {
		const bundled = { env: { CFLAGS: '-O1', CXXFLAGS: '-O1', JOBS: '2' }, sqlite: 'bundled' };
		expect(sqliteBuild(undefined, true, undefined)).toEqual(bundled);
		expect(sqliteBuild(header('3.44.2'), false, undefined)).toEqual(bundled);
		expect(sqliteBuild(header('3.39.4'), true, undefined)).toEqual(bundled);
		expect(sqliteBuild(header('2.99.99'), true, undefined)).toEqual(bundled);
		expect(sqliteBuild('#define SQLITE_VERSION "x.y"', true, undefined)).toEqual(bundled);
		expect(sqliteBuild('#define SQLITE_VERSION "3.40"', true, undefined)).toEqual(bundled);
		expect(sqliteBuild(header('3.4.99'), true, undefined)).toEqual(bundled);
		expect(sqliteBuild(`${'x'.repeat(1_000_000)}`, true, undefined)).toEqual(bundled);
		expect(sqliteBuild('', true, undefined)).toEqual(bundled);
		expect(sqliteBuild(header('3.44.2'), true, 'bundled')).toEqual(bundled);
	});
});
