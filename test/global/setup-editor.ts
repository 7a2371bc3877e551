/**
 * jest globalSetup of the editor suite (test/editor): what the e2e suite needs (the pack
 * built, the n8n runtime installed), plus Debian's Chromium, installed with apt-get the
 * first time when this runs as root.
 */
import { CHROMIUM, ensureChromium } from '../../scripts/chromium';
import { say, step } from './run';
import { prepareN8n } from './setup-n8n';

export default async function setupEditor(): Promise<void> {
	await prepareN8n();
	const version = await step(
		`Chromium for the editor tests (${CHROMIUM})`,
		async () => await ensureChromium((l) => say(`  ${l}`)),
	);
	say(`  ${version}`);
}
