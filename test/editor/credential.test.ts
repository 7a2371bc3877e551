/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The credential in n8n's editor: its form, and the OAuth popup (the sandbox's authorize
 * page) with Approve and Deny, as the README describes them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Page } from 'playwright-core';

import { CREDENTIAL_NAME, useEditor } from './env';

jest.setTimeout(180_000);

const { env, scenario } = useEditor();
const README = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');

/** Overview → Credentials → the credential: its dialog. */
async function openCredential(): Promise<void> {
	const { ed } = env;
	const item = ed.page.getByTestId('resources-list-item').filter({ hasText: CREDENTIAL_NAME });
	await ed.visit('/home/credentials', item);
	await item.click();
	await ed.page.getByTestId('credential-edit-dialog').waitFor();
}

async function closeCredential(): Promise<void> {
	const { page } = env.ed;
	await page.keyboard.press('Escape');
	await page.getByTestId('credential-edit-dialog').waitFor({ state: 'hidden' });
}

/** Clicks "Switch account" and returns the popup n8n opens (the sandbox's authorize page). */
async function switchAccount(): Promise<Page> {
	const { ed, sb } = env;
	const opened = ed.page.context().waitForEvent('page');
	await ed.page.getByTestId('oauth-switch-account-button').click();
	const popup = await opened;
	await popup.waitForURL((u) => u.href.startsWith(sb.authUrl));
	await popup.getByRole('button', { name: 'Approve' }).waitFor();
	return popup;
}

/** The README's credential table: its first column, in order. */
function readmeFields(): string[] {
	const table = README.slice(README.indexOf('| Field | What to enter |'));
	const rows = table.split('\n').slice(2);
	return rows
		.slice(
			0,
			rows.findIndex((l) => !l.startsWith('|')),
		)
		.map((l) => l.split('|')[1].trim())
		.flatMap((cell) => cell.split(', '));
}

describe('the credential form', () => {
	scenario('shows its fields in the order the README lists them', async () => {
		const { ed } = env;
		await openCredential();
		const dialog = ed.page.getByTestId('editCredential-modal');
		await dialog.getByTestId('parameter-input-baseUrl').waitFor();
		const labels = (
			await dialog.getByTestId('credential-connection-parameter').allInnerTexts()
		).map((l) => l.split('\n')[0].replace('*', '').trim());
		expect(labels).toEqual(readmeFields());
		await closeCredential();
	});
});

describe('the OAuth popup', () => {
	scenario(
		'"Switch account" opens the sandbox\'s authorize page; Approve closes it and the credential is connected with new tokens',
		async () => {
			const { ed, sb } = env;
			expect(README).toContain('**Switch account**');
			await openCredential();
			await ed.page.getByTestId('oauth-connect-success-banner').waitFor();
			const before = sb.auth.stats.authorizationCode;
			const popup = await switchAccount();
			const closed = popup.waitForEvent('close');
			await popup.getByRole('button', { name: 'Approve' }).click();
			await closed;
			await ed.page.getByTestId('oauth-connect-success-banner').waitFor();
			expect(sb.auth.stats.authorizationCode).toBe(before + 1);
			await closeCredential();
		},
	);

	scenario(
		'Deny: the popup says it failed; the credential keeps its tokens and shows connected again when reopened (README)',
		async () => {
			const { ed, sb } = env;
			expect(README).toMatch(/\*\*Deny\*\*/);
			expect(README).toMatch(/reopen it, and it shows\s+\*\*Account connected\*\*/);
			await openCredential();
			const popup = await switchAccount();
			await popup.getByRole('button', { name: 'Deny' }).click();
			await popup.getByText('Failed to connect').waitFor();
			await popup.close();
			// n8n's dialog forgets the connection it had until it is reopened (n8n's behaviour, see the README).
			await ed.page.getByText('Connect your account to use this credential').waitFor();
			// Closing it now, n8n asks "Close without connecting?": Close.
			await ed.page.keyboard.press('Escape');
			await ed.page.getByText('Close without connecting?').waitFor();
			await ed.page.getByRole('button', { name: 'Close', exact: true }).click();
			await ed.page.getByTestId('credential-edit-dialog').waitFor({ state: 'hidden' });
			await openCredential();
			await ed.page.getByTestId('oauth-connect-success-banner').waitFor();
			await closeCredential();
			// The stored tokens still work: a demo workflow runs.
			const invalid = sb.auth.stats.invalidToken;
			await ed.runWorkflow('bpDemoAllRecords');
			expect(sb.auth.stats.invalidToken).toBe(invalid);
		},
	);
});
