/* eslint-disable @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-require-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The `npm pack` tarball holds everything the nodes need and nothing else: unpacked as
 * n8n unpacks a community package, loaded with n8n-core's PackageDirectoryLoader (the
 * loader n8n uses for every package in ~/.n8n/nodes), every node and the credential
 * load, every icon they name is a file in the package, every node has its codex (the
 * categories and search aliases of the nodes panel). The check is shown to notice a
 * missing icon, codex and credential file.
 */
import {
	cpSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	rmSync,
	symlinkSync,
	unlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

import { PackageDirectoryLoader } from 'n8n-core';

import { BUNDLE } from '../../scripts/bundle';
import { ROOT } from '../../testbed/root';
import { extractTarball, packageJson, tarballPath } from '../../testbed/pack/tarball';

const NODES = [
	'businessPlatformCampaigns',
	'businessPlatformCampaignsTrigger',
	'businessPlatformPeople',
	'businessPlatformPeopleTrigger',
	'businessPlatformSales',
	'businessPlatformTableTrigger',
	'businessPlatformTrigger',
];
const CREDENTIAL = 'businessPlatformOAuth2Api';

interface Paths {
	sales: string;
	people: string;
	credential: string;
}

let work: string;
let pkgDir: string;

/** `<dir>/node_modules/<name>` with n8n-workflow next to it, standing in for n8n's own copy. */
function unpackInto(dir: string, from?: string): string {
	const modules = join(dir, 'node_modules');
	const target = join(modules, packageJson().name);
	mkdirSync(modules, { recursive: true });
	if (from) cpSync(from, target, { recursive: true });
	else extractTarball(tarballPath(), target);
	symlinkSync(join(ROOT, 'node_modules', 'n8n-workflow'), join(modules, 'n8n-workflow'), 'dir');
	return target;
}

const files = (dir: string): string[] =>
	readdirSync(dir, { recursive: true, withFileTypes: true })
		.filter((e) => e.isFile())
		.map((e) => relative(dir, join(e.parentPath, e.name)));

type Icon = string | { light: string; dark: string } | undefined;
const iconFiles = (name: string, iconUrl: Icon): string[] => {
	const urls =
		typeof iconUrl === 'string' ? [iconUrl] : iconUrl ? [iconUrl.light, iconUrl.dark] : [];
	return urls.map((u) => u.replace(`icons/${name}/`, ''));
};

/** What a package folder lacks for n8n to show the nodes as designed (empty when complete). */
async function problems(dir: string): Promise<string[]> {
	const found: string[] = [];
	const { name, n8n } = packageJson(dir);
	for (const path of [...(n8n.nodes ?? []), ...(n8n.credentials ?? [])])
		if (!existsSync(join(dir, path)))
			found.push(`package.json names ${path}, which is not in the package`);
	const loader = new PackageDirectoryLoader(dir);
	try {
		await loader.loadAll();
	} catch (e) {
		return [...found, `n8n could not load the package: ${(e as Error).message}`];
	}
	for (const node of NODES) {
		const description = loader.nodeTypes[node]?.type.description;
		if (!description) {
			found.push(`node ${node} not loaded`);
			continue;
		}
		if (!description.iconUrl) found.push(`node ${node} has no file icon`);
		for (const icon of iconFiles(name, description.iconUrl as Icon))
			if (!existsSync(join(dir, icon)))
				found.push(`node ${node}: icon ${icon} is not in the package`);
		const codex = description.codex;
		if (!codex?.categories?.length || !codex.alias?.length)
			found.push(`node ${node}: no codex (categories and search aliases) was loaded`);
	}
	const credential = loader.credentialTypes[CREDENTIAL]?.type;
	if (!credential) found.push(`credential ${CREDENTIAL} not loaded`);
	else
		for (const icon of iconFiles(name, credential.iconUrl as Icon))
			if (!existsSync(join(dir, icon)))
				found.push(`credential: icon ${icon} is not in the package`);
	return found;
}

beforeAll(() => {
	work = mkdtempSync(join(tmpdir(), 'bp-tarball-'));
	pkgDir = unpackInto(join(work, 'installed'));
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the npm pack tarball', () => {
	it('has every node, the credential, their icons and codex files, as n8n loads them', async () => {
		expect(await problems(pkgDir)).toEqual([]);
	});

	it('holds the compiled pack and the package files only (no sources, tests, sandbox or runtime dependencies)', () => {
		const outside = files(pkgDir).filter(
			(f) => !f.startsWith('dist/') && !['package.json', 'README.md', 'LICENSE'].includes(f),
		);
		expect(outside).toEqual([]);
		expect(files(pkgDir).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
		// n8n-node build copies every picture of the repository into dist/; the docs' pictures stay out ("files": "!dist/docs").
		const strayFolders = files(pkgDir).filter(
			(f) => f.split('/').length > 2 && !/^dist\/(nodes|credentials)\//.test(f),
		);
		expect(strayFolders).toEqual([]);
		const pkg = packageJson(pkgDir);
		expect(pkg.dependencies).toBeUndefined();
		expect(pkg.peerDependencies).toEqual({ 'n8n-workflow': '*' });
	});

	it('ships the code as one bundle: each file n8n requires hands it the class from dist/business-platform.js, the same class the bundle holds', () => {
		const js = files(pkgDir).filter((f) => f.endsWith('.js'));
		const { n8n } = packageJson(pkgDir);
		const listed = [...(n8n.credentials ?? []), ...(n8n.nodes ?? [])];
		expect(js.sort()).toEqual([...listed, BUNDLE].sort());
		const { files: inBundle } = require(join(pkgDir, BUNDLE)) as {
			files: Record<string, Record<string, unknown>>;
		};
		for (const file of listed) {
			const className = file
				.split('/')
				.pop()!
				.replace(/\.(node|credentials)\.js$/, '');
			const exported = (require(join(pkgDir, file)) as Record<string, unknown>)[className];
			expect(typeof exported).toBe('function');
			const key = file.replace(/^dist\//, '').replace(/\.js$/, '');
			expect(inBundle[key][className]).toBe(exported);
		}
	});

	it.each([
		[
			'an icon',
			(p: Paths) =>
				p.sales.replace(/BusinessPlatformSales\.node\.js$/, 'businessPlatform.dark.svg'),
			/businessPlatformSales: icon .*businessPlatform\.dark\.svg is not in the package/,
		],
		[
			'a codex file',
			(p: Paths) => p.people.replace(/\.js$/, '.json'),
			/businessPlatformPeople: no codex/,
		],
		[
			'the credential',
			(p: Paths) => p.credential,
			/package\.json names dist\/credentials\/.*, which is not in the package/,
		],
	])('the check notices when the package lacks %s', async (what, file, message) => {
		const broken = unpackInto(join(work, `without ${what}`), pkgDir);
		const { n8n } = packageJson(broken);
		const paths: Paths = {
			sales: n8n.nodes!.find((p) => p.includes('Sales'))!,
			people: n8n.nodes!.find((p) => p.includes('People'))!,
			credential: n8n.credentials![0],
		};
		unlinkSync(join(broken, file(paths)));
		expect(await problems(broken)).toEqual(
			expect.arrayContaining([expect.stringMatching(message)]),
		);
	});
});
