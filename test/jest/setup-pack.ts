/**
 * jest globalSetup of the suites that need the package as published (package, e2e):
 * before any test file starts, the pack is built and packed with `npm pack` into .pack/
 * (each only when its inputs changed). A failure stops the run with one message.
 */
import { buildIsCurrent, buildPack } from '../../testbed/pack/build';
import { packTarball, tarballIsCurrent } from '../../testbed/pack/tarball';
import { beginRun, say, step } from './run';

export async function buildAndPack(): Promise<string> {
	if (buildIsCurrent()) say('build the pack: dist/ is newer than every source file, kept');
	else await step('build the pack (npm run build)', async () => await buildPack());
	if (!tarballIsCurrent()) return await step('pack the tarball (npm pack)', () => packTarball());
	const tarball = packTarball();
	say(`pack the tarball: ${tarball} is newer than the build, kept`);
	return tarball;
}

export default async function setupPack(): Promise<void> {
	beginRun();
	await buildAndPack();
}
