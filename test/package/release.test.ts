/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The release path: n8n's node-cli finds the package eligible for n8n Cloud verification
 * (strict mode and n8n's ESLint config verbatim), and a publish from anywhere but the
 * release workflow (.github/workflows/publish.yml) stops before any upload:
 * `publishConfig.provenance` needs GitHub Actions' OIDC token (the project's .npmrc sets
 * ignore-scripts, which skips lifecycle scripts such as prepublishOnly), and with scripts
 * enabled `prepublishOnly` (n8n-node prerelease) asks for `npm run release` first. The
 * registry is a closed port on 127.0.0.1, so nothing could be published even if a guard failed.
 */
import { createServer } from 'node:net';

import { ROOT } from '../../testbed/root';
import { spawnGroup } from '../../testbed/processes';

jest.setTimeout(120_000);

/** Runs a command in the repository without CI markers (a maintainer's terminal); returns exit code and output. */
async function run(cmd: string, args: string[]): Promise<{ code: number | null; out: string }> {
	const env = Object.fromEntries(
		Object.entries(process.env).filter(
			([k]) => !/^(GITHUB_|GITLAB_|ACTIONS_|RELEASE_MODE$|NODE_ENV$|npm_config_)/i.test(k),
		),
	);
	const child = spawnGroup(`${cmd} ${args[0]}`, cmd, args, {
		cwd: ROOT,
		env: { ...env, NO_COLOR: '1' },
	});
	// Its output read to the end, not only its exit: on a busy machine the last lines come after it.
	const { code } = await child.ended;
	return { code, out: child.output() };
}

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	const { port } = server.address() as { port: number };
	await new Promise((r) => server.close(r));
	return port;
}

describe('release path', () => {
	it('n8n-node cloud-support: eligible for n8n Cloud verification (strict mode, template ESLint config)', async () => {
		const { code, out } = await run('npx', ['--no-install', 'n8n-node', 'cloud-support']);
		expect(code).toBe(0);
		expect(out).toMatch(/Status: eligible for n8n Cloud verification/);
	});

	it('a manual npm publish fails before any upload: provenance needs the release workflow', async () => {
		const port = await closedPort();
		const registry = `http://127.0.0.1:${port}/`;
		const { code, out } = await run('npm', [
			'publish',
			'--fetch-retries=0',
			`--registry=${registry}`,
			`--//127.0.0.1:${port}/:_authToken=not-a-token`,
		]);
		expect(code).not.toBe(0);
		// npm got as far as the upload and refused to build it without provenance.
		expect(out).toMatch(
			/Publishing to http:\/\/127\.0\.0\.1:\d+\/[^\n]*\n[\s\S]*Automatic provenance generation not supported/,
		);
	});

	it('with scripts enabled, prepublishOnly stops a publish outside `npm run release`', async () => {
		const port = await closedPort();
		const { code, out } = await run('npm', [
			'publish',
			'--ignore-scripts=false',
			'--fetch-retries=0',
			`--registry=http://127.0.0.1:${port}/`,
			`--//127.0.0.1:${port}/:_authToken=not-a-token`,
		]);
		expect(code).not.toBe(0);
		expect(out).toMatch(/Run `npm run release` to publish the package/);
		expect(out).not.toMatch(/Publishing to/);
	});
});
