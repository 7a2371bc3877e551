/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * Lays out a folder's node_modules from its package-lock.json exactly as `npm install
 * --ignore-scripts` does from that lock, without npm, which spends most of its time extracting tar
 * files in JavaScript (docs/development.md has the figures).
 *
 * What it does, as npm does from a lock file:
 * - installs every entry of `packages` but the extraneous ones and the optional ones whose
 *   `os`, `cpu` or `libc` do not match this machine, each at the path the lock names;
 * - fetches each tarball from the registry (the lock's `resolved`, else the registry's
 *   standard tarball address) and refuses one whose sha512 differs from the lock's `integrity`;
 * - extracts files and folders only (npm drops links inside tarballs), the first path part
 *   stripped, no entry outside its package folder, modes as npm sets them (at least rw-r--r--,
 *   executable bits kept);
 * - links every package's `bin` into `.bin` of the node_modules folder that holds it.
 * Anything it does not handle the way npm would (a git or file dependency, a link, an entry
 * without integrity, a required package for another platform) throws `Unsupported` before
 * it writes anything, and the caller runs npm instead.
 */
import { createHash } from 'node:crypto';
import {
	chmodSync,
	existsSync,
	mkdirSync,
	readFileSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { basename, dirname, join, posix, relative } from 'node:path';
import { gunzipSync } from 'node:zlib';

export interface LockEntry {
	version?: string;
	resolved?: string;
	integrity?: string;
	name?: string;
	bin?: string | Record<string, string>;
	os?: string[];
	cpu?: string[];
	libc?: string[];
	extraneous?: boolean;
	optional?: boolean;
	link?: boolean;
	inBundle?: boolean;
	dependencies?: Record<string, string>;
	optionalDependencies?: Record<string, string>;
}

export interface Lock {
	packages: Record<string, LockEntry>;
}

/** One package to put in place: its folder (relative to the install folder), its tarball and what to link. */
export interface Planned {
	path: string;
	url: string;
	integrity: string;
	bin: Record<string, string>;
}

export interface Platform {
	os: string;
	cpu: string;
	libc: string | undefined;
}

/** A lock npm would install differently from this file: the caller falls back to npm. */
export class Unsupported extends Error {}

export function thisPlatform(): Platform {
	const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } })
		?.header;
	return {
		os: process.platform,
		cpu: process.arch,
		libc:
			process.platform === 'linux' ? (header?.glibcVersionRuntime ? 'glibc' : 'musl') : undefined,
	};
}

/** npm's rule for `os`/`cpu`/`libc` lists: allowed when listed (or `!x` lists exclude it), any value when absent. */
function allows(list: string[] | undefined, value: string | undefined): boolean {
	if (!list?.length) return true;
	if (value === undefined) return false;
	if (list.includes(`!${value}`)) return false;
	const positive = list.filter((v) => !v.startsWith('!'));
	return positive.length === 0 || positive.includes(value) || positive.includes('any');
}

/** The package name at a lock path: the part after its last `node_modules/`. */
function nameAt(path: string): string {
	return path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
}

/** What npm would put where, from the lock; throws `Unsupported` for what this file does not do. */
export function plan(lock: Lock, registry: string, platform: Platform = thisPlatform()): Planned[] {
	const out: Planned[] = [];
	const base = registry.endsWith('/') ? registry : `${registry}/`;
	for (const [path, e] of Object.entries(lock.packages ?? {})) {
		if (path === '' || e.extraneous || e.inBundle) continue; // a bundled one comes inside its parent's tarball
		if (!path.startsWith('node_modules/') || e.link)
			throw new Unsupported(`${path || 'the root'}: a workspace or link`);
		const fits =
			allows(e.os, platform.os) && allows(e.cpu, platform.cpu) && allows(e.libc, platform.libc);
		if (!fits) {
			if (e.optional) continue;
			throw new Unsupported(`${path}: a required package for another platform`);
		}
		const name = e.name ?? nameAt(path);
		if (!e.version || !e.integrity?.includes('sha512-'))
			throw new Unsupported(`${path}: no version or no sha512 integrity in the lock`);
		const url = e.resolved ?? `${base}${name}/-/${basename(name)}-${e.version}.tgz`;
		if (!/^https?:\/\//.test(url)) throw new Unsupported(`${path}: not from a registry (${url})`);
		if (path.split('/').some((p) => p === '..' || p === '.'))
			throw new Unsupported(`${path}: not a plain path`);
		const bin = typeof e.bin === 'string' ? { [basename(name)]: e.bin } : { ...(e.bin ?? {}) };
		out.push({ path, url, integrity: e.integrity, bin });
	}
	return out;
}

/**
 * The lock paths `root` needs at run time (itself, its dependencies and theirs), each found as
 * Node finds it: in the nearest `node_modules` folder up from the package that depends on it.
 */
export function closure(lock: Lock, root: string): Set<string> {
	const out = new Set<string>();
	const todo = [root];
	while (todo.length) {
		const path = todo.pop()!;
		const e = lock.packages[path];
		if (!e || out.has(path)) continue;
		out.add(path);
		for (const dep of Object.keys({ ...e.dependencies, ...e.optionalDependencies })) {
			for (let at = path; ; ) {
				const candidate = `${at}/node_modules/${dep}`;
				if (lock.packages[candidate]) {
					todo.push(candidate);
					break;
				}
				const up = at.lastIndexOf('/node_modules/');
				if (up === -1) {
					if (lock.packages[`node_modules/${dep}`]) todo.push(`node_modules/${dep}`);
					break;
				}
				at = at.slice(0, up);
			}
		}
	}
	return out;
}

/** The lock's sha512 of a tarball matches its bytes. */
export function verified(bytes: Buffer, integrity: string): boolean {
	const want = integrity
		.split(/\s+/)
		.find((h) => h.startsWith('sha512-'))
		?.slice('sha512-'.length);
	return !!want && createHash('sha512').update(bytes).digest('base64') === want;
}

const text = (b: Buffer, from: number, len: number) => {
	const s = b.subarray(from, from + len);
	const end = s.indexOf(0);
	return s.subarray(0, end === -1 ? s.length : end).toString('utf8');
};
const octal = (b: Buffer, from: number, len: number) =>
	parseInt(text(b, from, len).trim() || '0', 8);

/** PAX records (`<len> key=value\n`): the long path and size they override. */
function pax(body: Buffer): Record<string, string> {
	const out: Record<string, string> = {};
	let at = 0;
	while (at < body.length) {
		const space = body.indexOf(0x20, at);
		const len = parseInt(body.subarray(at, space).toString('utf8'), 10);
		if (!(len > 0) || space === -1) break;
		const record = body.subarray(space + 1, at + len - 1).toString('utf8');
		const eq = record.indexOf('=');
		if (eq > 0) out[record.slice(0, eq)] = record.slice(eq + 1);
		at += len;
	}
	return out;
}

export interface TarFile {
	path: string;
	mode: number;
	dir: boolean;
	body: Buffer;
}

/** The files and folders of a tar archive, the first path part stripped; links and other kinds skipped. */
export function* tarEntries(tar: Buffer): Generator<TarFile> {
	let at = 0;
	let longName: string | undefined;
	let ext: Record<string, string> = {};
	while (at + 512 <= tar.length) {
		const h = tar.subarray(at, at + 512);
		if (h[0] === 0 && h.subarray(0, 512).every((b) => b === 0)) break;
		const type = h[156] === 0 ? '0' : String.fromCharCode(h[156]);
		const size = ext.size !== undefined ? Number(ext.size) : octal(h, 124, 12);
		const body = tar.subarray(at + 512, at + 512 + size);
		at += 512 + Math.ceil(size / 512) * 512;
		if (type === 'x') {
			ext = pax(body);
			continue;
		}
		if (type === 'g') continue;
		if (type === 'L') {
			longName = text(body, 0, body.length);
			continue;
		}
		const prefix = text(h, 257, 6).startsWith('ustar') ? text(h, 345, 155) : '';
		const name =
			ext.path ?? longName ?? (prefix ? `${prefix}/${text(h, 0, 100)}` : text(h, 0, 100));
		longName = undefined;
		ext = {};
		if (type !== '0' && type !== '5' && type !== '7') continue; // npm extracts no links or devices
		const parts = name.split('/').filter((p) => p !== '' && p !== '.');
		if (parts.some((p) => p === '..') || name.startsWith('/')) continue; // never outside its folder
		const path = parts.slice(1).join('/');
		if (!path) continue;
		yield { path, mode: octal(h, 100, 8), dir: type === '5', body };
	}
}

/** Writes one package's tarball into `folder` (made if missing), modes as npm's: files at least 0644, folders 0755. */
export function extract(tgz: Buffer, folder: string): number {
	const made = new Set<string>();
	const dir = (d: string) => {
		if (made.has(d)) return;
		mkdirSync(d, { recursive: true });
		made.add(d);
	};
	dir(folder);
	let files = 0;
	const ignores = new Set<string>();
	for (const e of tarEntries(gunzipSync(tgz))) {
		if (e.dir) {
			dir(join(folder, ...e.path.split('/')));
			continue;
		}
		// As npm: a .gitignore is kept as .npmignore, unless a .npmignore came before it.
		let path = e.path;
		if (path === '.npmignore' || path.endsWith('/.npmignore')) ignores.add(path);
		else if (path === '.gitignore' || path.endsWith('/.gitignore')) {
			path = `${path.slice(0, -'.gitignore'.length)}.npmignore`;
			if (ignores.has(path)) continue;
		}
		const target = join(folder, ...path.split('/'));
		dir(dirname(target));
		writeFileSync(target, e.body, { mode: (e.mode | 0o666) & 0o777 });
		files++;
	}
	return files;
}

/** Links `bin` of the package at `path` into the `.bin` of the node_modules folder that holds it, as npm does. */
export function linkBins(root: string, p: Planned): void {
	const pkg = join(root, p.path);
	const holder = dirname(basename(dirname(pkg)).startsWith('@') ? dirname(pkg) : pkg);
	for (const [name, target] of Object.entries(p.bin)) {
		const binName = basename(name);
		const file = join(pkg, ...posix.normalize(target).split('/'));
		if (relative(pkg, file).startsWith('..') || !existsSync(file)) continue;
		chmodSync(file, 0o755);
		const link = join(holder, '.bin', binName);
		if (existsSync(link)) continue;
		mkdirSync(dirname(link), { recursive: true });
		symlinkSync(relative(dirname(link), file), link);
	}
}

async function download(url: string, tries = 4): Promise<Buffer> {
	for (let i = 1; ; i++) {
		try {
			const res = await fetch(url, { redirect: 'follow' });
			if (res.status === 200) return Buffer.from(await res.arrayBuffer());
			if (res.status < 500 && res.status !== 429) throw new Error(`${res.status} for ${url}`);
			if (i >= tries) throw new Error(`${res.status} for ${url} after ${tries} tries`);
		} catch (e) {
			if (i >= tries || /^\d{3} for/.test((e as Error).message)) throw e;
		}
		await new Promise((r) => setTimeout(r, 500 * 2 ** i));
	}
}

export interface InstallOptions {
	/** Parallel downloads (default 24). */
	concurrency?: number;
	/** A lock path whose packages (with what it needs) go first; `whenReady` runs once they are in place. */
	first?: string;
	whenReady?: () => void;
}

/** Installs `folder`'s package-lock.json into `folder/node_modules`; resolves with the counts. */
export async function installFromLock(
	folder: string,
	registry: string,
	opts: InstallOptions = {},
): Promise<{ packages: number; files: number; bytes: number }> {
	const lock = JSON.parse(readFileSync(join(folder, 'package-lock.json'), 'utf8')) as Lock;
	const planned = plan(lock, registry);
	const early = opts.first ? closure(lock, opts.first) : new Set<string>();
	const todo = [
		...planned.filter((p) => early.has(p.path)),
		...planned.filter((p) => !early.has(p.path)),
	];
	let waiting = todo.filter((p) => early.has(p.path)).length;
	if (opts.first && waiting === 0) opts.whenReady?.();
	let next = 0;
	let files = 0;
	let bytes = 0;
	let failed: unknown;
	const worker = async () => {
		while (next < todo.length && failed === undefined) {
			const p = todo[next++];
			try {
				const tgz = await download(p.url);
				if (!verified(tgz, p.integrity))
					throw new Error(`${p.path}: the tarball's sha512 differs from the lock's (${p.url})`);
				bytes += tgz.length;
				files += extract(tgz, join(folder, p.path));
			} catch (e) {
				failed ??= e;
				return;
			}
			if (early.has(p.path) && --waiting === 0) {
				for (const q of todo) if (early.has(q.path)) linkBins(folder, q);
				opts.whenReady?.();
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(opts.concurrency ?? 24, todo.length) }, worker));
	if (failed !== undefined) throw failed;
	for (const p of todo) if (!early.has(p.path)) linkBins(folder, p);
	return { packages: todo.length, files, bytes };
}

/** What the command prints once the packages of its `first` argument are in place. */
export const READY_LINE = 'lockfile-install: first packages ready';

/** `tsx testbed/runtime/lockfile-install.ts <folder> <registry> [first lock path]`: exit 3 when the lock needs npm. */
if (require.main === module) {
	const [folder, registry, first] = process.argv.slice(2);
	installFromLock(folder, registry ?? 'https://registry.npmjs.org/', {
		first,
		whenReady: () => process.stdout.write(`${READY_LINE}\n`),
	}).then(
		(r) => process.stdout.write(`${JSON.stringify(r)}\n`),
		(e: unknown) => {
			process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
			process.exit(e instanceof Unsupported ? 3 : 1);
		},
	);
}
