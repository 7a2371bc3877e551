/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error, @typescript-eslint/no-unused-vars -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The package as users get it: the `npm pack` tarball of the built pack (dist/,
 * package.json, README, LICENSE), kept in .pack/ and made again only when the build
 * is newer. The e2e tests, `npm start` and the scanner test install or read this file,
 * never the repository itself, so a file missing from the tarball fails them.
 */
import { execFileSync } from 'node:child_process';
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	renameSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

import { ROOT } from '../root';

export const PACK_DIR = join(ROOT, '.pack');
const BUILT_STAMP = join(ROOT, 'dist', '.built');

interface PackageJson {
	name: string;
	version: string;
	n8n: { nodes?: string[]; credentials?: string[] };
	[key: string]: unknown;
}

export const packageJson = (dir = ROOT): PackageJson =>
	JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;

/** Where the tarball of the current version is (whether or not it exists yet). */
export function tarballPath(): string {
	const { name, version } = packageJson();
	return join(PACK_DIR, `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`);
}

/** The tarball exists and is newer than the last build and than package.json. */
export function tarballIsCurrent(path = tarballPath()): boolean {
	if (!existsSync(path) || !existsSync(BUILT_STAMP)) return false;
	const made = statSync(path).mtimeMs;
	return (
		made >= statSync(BUILT_STAMP).mtimeMs && made >= statSync(join(ROOT, 'package.json')).mtimeMs
	);
}

/**
 * Packs the built pack unless the tarball is current; returns its path. Needs a build
 * (`npm run build`, or `buildPack()` in testbed/pack/build.ts). Several processes may pack
 * at once: each packs into its own folder and renames the file into place.
 */
export function packTarball(force = false): string {
	const target = tarballPath();
	if (!force && tarballIsCurrent(target)) return target;
	if (!existsSync(BUILT_STAMP))
		throw new Error(
			'packing the pack: dist/ has not been built. Run npm run build first (npm test and npm start build it themselves).',
		);
	mkdirSync(PACK_DIR, { recursive: true });
	const scratch = mkdtempSync(join(PACK_DIR, '.packing-'));
	try {
		const out = execFileSync(
			'npm',
			['pack', '--json', '--ignore-scripts', '--pack-destination', scratch],
			{ cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
		);
		const [{ filename }] = JSON.parse(out) as Array<{ filename: string }>;
		renameSync(join(scratch, filename), target);
	} catch (e) {
		const err = e as { stderr?: string; message: string };
		throw new Error(`npm pack failed: ${(err.stderr || err.message).trim().slice(-2000)}`);
	} finally {
		rmSync(scratch, { recursive: true, force: true });
	}
	return target;
}

/** The files package.json's "n8n" section (of the package in `dir`) names that the tarball `tgz` lacks; empty when it has them all. */
export function missingFromTarball(tgz: string, dir = ROOT): string[] {
	const listed = new Set(
		execFileSync('tar', ['-tzf', tgz], { encoding: 'utf8' })
			.split('\n')
			.map((line) => line.replace(/^package\//, '')),
	);
	const { n8n } = packageJson(dir);
	return [...(n8n.credentials ?? []), ...(n8n.nodes ?? [])].filter((f) => !listed.has(f));
}

/** Extracts a tarball into `dir` as n8n does (`tar -xzf <tgz> -C <dir> --strip-components=1`). */
export function extractTarball(tarball: string, dir: string): void {
	mkdirSync(dir, { recursive: true });
	execFileSync('tar', ['-xzf', tarball, '-C', dir, '--strip-components=1'], {
		stdio: ['ignore', 'ignore', 'pipe'],
	});
}

/**
 * Installs the tarball into an n8n user folder the way Settings → Community Nodes does
 * (CommunityPackagesService.downloadPackage, the same steps in n8n 1.123 and 2.41, after
 * `npm pack <name>@<version>` from the registry): extract it into
 * `.n8n/nodes/node_modules/<name>`, drop devDependencies, peerDependencies and
 * optionalDependencies from its package.json (so n8n-workflow resolves to n8n's own
 * copy, never a second one), `npm install` its dependencies with n8n's flags, and record
 * it in `.n8n/nodes/package.json`. n8n's database record (the list in Settings) is not
 * written: n8n loads every package in that folder at start either way.
 */
export function installTarball(
	tarball: string,
	userFolder: string,
	env: NodeJS.ProcessEnv = process.env,
): string {
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	const { name, version } = packageJson();
	const dir = join(nodesDir, 'node_modules', name);
	rmSync(dir, { recursive: true, force: true });
	extractTarball(tarball, dir);
	const {
		devDependencies: _d,
		peerDependencies: _p,
		optionalDependencies: _o,
		...kept
	} = packageJson(dir);
	writeFileSync(join(dir, 'package.json'), JSON.stringify(kept, null, 2));
	// Without dependencies (the pack has none) npm has nothing to install and writes nothing (the
	// folder's files are the same before and after), so its start is spared.
	if (Object.keys((kept as { dependencies?: object }).dependencies ?? {}).length > 0)
		npmInstall(dir, env, `${name} into ${nodesDir}`);
	const ledgerPath = join(nodesDir, 'package.json');
	const ledger: { dependencies?: Record<string, string> } = existsSync(ledgerPath)
		? JSON.parse(readFileSync(ledgerPath, 'utf8'))
		: { name: 'installed-nodes', private: true };
	ledger.dependencies = { ...ledger.dependencies, [name]: version };
	writeFileSync(ledgerPath, JSON.stringify(ledger, null, 2));
	return dir;
}

/** n8n's `npm install` of a community package's dependencies in its folder, with n8n's flags. */
function npmInstall(dir: string, env: NodeJS.ProcessEnv, what: string): void {
	try {
		execFileSync(
			'npm',
			[
				'install',
				'--audit=false',
				'--fund=false',
				'--bin-links=false',
				'--install-strategy=shallow',
				'--ignore-scripts=true',
				'--package-lock=false',
			],
			{
				cwd: dir,
				env,
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
	} catch (e) {
		const err = e as { stderr?: Buffer; message: string };
		throw new Error(
			`installing ${what} (npm install in the package folder, as n8n does) failed: ${(err.stderr?.toString() || err.message).trim().slice(-2000)}`,
		);
	}
}
