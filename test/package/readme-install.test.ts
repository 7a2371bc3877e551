/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The README's tarball route, run as a newcomer runs it: its commands as written (README.md,
 * "From a tarball"), in a scratch copy of the repository that, like a fresh clone, has no dist/,
 * and with a scratch home folder for `~/.n8n/nodes`. Two lines are stood in for: `git clone` and
 * `cd` (the scratch copy is the clone: the repository's files as they are in this checkout, tracked
 * and not ignored), and `npm ci` (a link to this checkout's node_modules, installed from the same
 * lock file, instead of a second install of 1,000 packages). Everything else runs as written: the
 * build, the pack, `npm install` of the tarball into the scratch n8n folder. The tarball and the
 * installed package must hold every file package.json's "n8n" section names. The check is shown to
 * notice the package the README's former command wrote (`npm ci && npm pack` on an unbuilt clone).
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';

import { missingFromTarball, packageJson } from '../../testbed/pack/tarball';
import { runScratch, spawnGroup } from '../../testbed/processes';
import { ROOT } from '../../testbed/root';

jest.setTimeout(240_000);

const CLONE_URL = 'https://github.com/business-platform/n8n-nodes-business-platform.git';

/** The fenced `sh` blocks of the README's section under `heading`, as lists of command lines. */
export function sectionCommands(readme: string, heading: string): string[][] {
	const start = readme.indexOf(`\n### ${heading}\n`);
	if (start === -1) throw new Error(`README.md has no section "### ${heading}"`);
	const rest = readme.slice(start + 1);
	const end = rest.slice(4).search(/\n#{1,3} /);
	const section = end === -1 ? rest : rest.slice(0, end + 4);
	return [...section.matchAll(/^```sh\n([\s\S]*?)^```/gm)].map((m) =>
		m[1].split('\n').filter((l) => l.trim() && !l.trim().startsWith('#')),
	);
}

/** A newcomer's terminal: no npm settings inherited from the test run, `HOME` where the test says. */
function terminalEnv(home: string): NodeJS.ProcessEnv {
	const env = Object.fromEntries(
		Object.entries(process.env).filter(([k]) => !/^(npm_|INIT_CWD$|BP_N8N_)/i.test(k)),
	);
	return { ...env, HOME: home, NO_COLOR: '1' };
}

/** Runs command lines with sh in `cwd` (stopping at the first that fails); returns the output. */
async function sh(lines: string[], cwd: string, home: string): Promise<string> {
	const child = spawnGroup('README commands', 'sh', ['-ec', lines.join('\n')], {
		cwd,
		env: terminalEnv(home),
	});
	const { code } = await child.ended;
	const out = child.output();
	if (code !== 0)
		throw new Error(`${lines.join(' && ')} failed (exit ${code}):\n${out.slice(-3000)}`);
	return out;
}

/** The repository as a fresh clone has it: every file git tracks or would track, nothing it ignores (no dist/). */
function scratchClone(into: string): string {
	const dir = join(into, 'n8n-nodes-business-platform');
	const files = execFileSync(
		'git',
		['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
		{
			cwd: ROOT,
			encoding: 'utf8',
		},
	)
		.split('\0')
		.filter((f) => f && existsSync(join(ROOT, f)));
	for (const f of files) {
		mkdirSync(dirname(join(dir, f)), { recursive: true });
		cpSync(join(ROOT, f), join(dir, f));
	}
	return dir;
}

const n8nFiles = () => {
	const { n8n } = packageJson();
	return [...(n8n.credentials ?? []), ...(n8n.nodes ?? [])];
};

let work: string;
let clone: string;
let home: string;

beforeAll(() => {
	work = runScratch('readme-install-');
	clone = scratchClone(work);
	home = join(work, 'home');
	mkdirSync(home);
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('README, Installation → From a tarball', () => {
	const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
	const [build, install] = sectionCommands(readme, 'From a tarball (until 0.1.0 is on npm)');

	it('has the clone-and-build commands and the install commands', () => {
		expect(build).toEqual([
			`git clone ${CLONE_URL}`,
			'cd n8n-nodes-business-platform',
			expect.stringMatching(/^npm ci\b/),
			'npm run tarball',
		]);
		expect(install).toEqual([
			'mkdir -p ~/.n8n/nodes && cd ~/.n8n/nodes',
			expect.stringMatching(
				/^npm install --legacy-peer-deps .*\/path\/to\/n8n-nodes-business-platform-[\d.]+\.tgz$/,
			),
		]);
	});

	it("the check notices the former command's package: `npm pack` on an unbuilt clone holds none of the files n8n loads", async () => {
		mkdirSync(join(work, 'former'));
		const out = await sh(['npm pack --silent --pack-destination ../former'], clone, home);
		const tgz = join(work, 'former', out.trim().split('\n').pop()!);
		expect(missingFromTarball(tgz, clone)).toEqual(n8nFiles());
	});

	it('builds a tarball that holds every file package.json\'s "n8n" section names, and installs it into ~/.n8n/nodes', async () => {
		// `git clone` and `cd`: the scratch copy; `npm ci`: this checkout's node_modules (see the header).
		symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'), 'dir');
		const out = await sh(build.slice(3), clone, home);
		const { name, version } = packageJson(clone);
		const tgz = join(clone, `${name}-${version}.tgz`);
		expect(out).toContain(`Packed: ${tgz}`);
		expect(missingFromTarball(tgz, clone)).toEqual([]);

		await sh(
			install.map((l) => l.replace(/\/path\/to\/\S+\.tgz$/, tgz)),
			clone,
			home,
		);
		const installed = join(home, '.n8n', 'nodes', 'node_modules', name);
		expect(n8nFiles().filter((f) => !existsSync(join(installed, f)))).toEqual([]);
		// --legacy-peer-deps: no second n8n-workflow beside the pack (n8n's own is used).
		expect(existsSync(join(home, '.n8n', 'nodes', 'node_modules', 'n8n-workflow'))).toBe(false);
	});
});
