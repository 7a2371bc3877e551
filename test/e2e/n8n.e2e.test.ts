/* eslint-disable @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * End to end in a real n8n (the pinned runtime `N8N_TEST_VERSION` picks, installed on
 * first use), the one the e2e files share (test/helpers/shared-n8n.ts): the `npm pack` tarball
 * installed as n8n installs a community package, a credential connected through n8n's OAuth
 * flow and workflows created through n8n's API, workflows run through production webhooks,
 * everything against this file's sandbox. (A polling trigger across a restart:
 * polling.e2e.test.ts, with the polling lanes of n8n's other schedulers.)
 */
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { ROOT } from '../../testbed/root';
import { startTestSandbox, type Sandbox } from '../helpers/sandbox';
import { credential, pack, PKG, webhookStart, workflow } from '../../testbed/n8n/env';
import {
	expectSameOutcomes,
	SHORTCUT_PATH,
	shortcutOutcomes,
	shortcutWorkflow,
} from '../helpers/expression-shortcut';
import { joinSharedN8n, type SharedE2e } from '../helpers/shared-n8n';
import { campaignsCrud, peopleCrud, salesCrud } from '../helpers/workflows';

jest.setTimeout(900_000);

let sb: Sandbox;
let e2e: SharedE2e;

const continueOnFail = workflow('e2eContinueFail1', 'E2E continue on fail', [
	webhookStart('continue-on-fail'),
	{
		name: 'Split',
		type: 'n8n-nodes-base.splitOut',
		typeVersion: 1,
		parameters: { fieldToSplitOut: 'body.ids', options: {} },
	},
	pack(
		'businessPlatformSales',
		'Get',
		{
			resource: 'contact',
			operation: 'get',
			contactId: {
				__rl: true,
				mode: 'id',
				value: '={{ $json["body.ids"] ?? $json.ids ?? $json }}',
			},
		},
		{ onError: 'continueRegularOutput' },
	),
]);

beforeAll(async () => {
	sb = await startTestSandbox({ rows: 20 });
	e2e = await joinSharedN8n(
		[credential(sb, sb.demo.tokenResponse)],
		[salesCrud, campaignsCrud, peopleCrud, continueOnFail, shortcutWorkflow()],
		{
			e2eSalesCrud0001: 'sales-crud',
			e2eCampCrud00001: 'campaigns-crud',
			e2ePeopleCrud001: 'people-crud',
			e2eContinueFail1: 'continue-on-fail',
			e2eShortcut00001: SHORTCUT_PATH,
		},
	);
});

afterAll(async () => {
	await e2e?.stop();
	await sb?.stop();
});

describe('the package in n8n', () => {
	it('loads every node and the credential, with icons that resolve', async () => {
		const headers = { cookie: e2e.api.cookie };
		const nodes = (await (
			await fetch(`${e2e.n8n.url}/types/nodes.json`, { headers })
		).json()) as Array<{
			name: string;
			iconUrl?: unknown;
			usableAsTool?: boolean;
			hidden?: boolean;
			version?: number | number[];
		}>;
		const ours = nodes.filter((n) => n.name.startsWith(`${PKG}.`));
		// usableAsTool gives each action node an AI-tool twin; the trigger has none. The trigger's
		// first type name stays loaded for saved workflows, hidden from the nodes panel. A versioned
		// node type (the Sales Trigger: versions 1 to 3, and 4 with the polling events) is listed
		// once per description.
		const versionsOf = (name: string) =>
			ours
				.filter((n) => n.name === `${PKG}.${name}`)
				.flatMap((n) => (Array.isArray(n.version) ? n.version : [n.version]))
				.sort();
		expect(versionsOf('businessPlatformSalesTrigger')).toEqual([1, 2, 3, 4]);
		expect([...new Set(ours.map((n) => n.name))].sort()).toEqual(
			[
				'Campaigns',
				'CampaignsTool',
				'CampaignsTrigger',
				'People',
				'PeopleTool',
				'PeopleTrigger',
				'Sales',
				'SalesTool',
				'SalesTrigger',
				'TableTrigger',
				'Trigger',
			].map((n) => `${PKG}.businessPlatform${n}`),
		);
		expect(ours.filter((n) => n.hidden).map((n) => n.name)).toEqual([
			`${PKG}.businessPlatformTrigger`,
		]);
		const creds = (await (
			await fetch(`${e2e.n8n.url}/types/credentials.json`, { headers })
		).json()) as Array<{ name: string; extends?: string[]; supportedNodes?: string[] }>;
		// Restricted to the pack's nodes: the HTTP Request node does not offer it (it would send no x-access-token).
		expect(creds.find((c) => c.name === 'businessPlatformOAuth2Api')).toMatchObject({
			extends: ['oAuth2Api'],
			restrictToSupportedNodes: true,
		});
		expect(creds.find((c) => c.name === 'businessPlatformOAuth2Api')!.supportedNodes).not.toContain(
			'n8n-nodes-base.httpRequest',
		);
		for (const n of ours) {
			const icon = n.iconUrl as { light: string; dark: string };
			for (const url of [icon.light, icon.dark]) {
				const res = await fetch(`${e2e.n8n.url}/${url}`, { headers });
				expect([url, res.status]).toEqual([url, 200]);
				expect(await res.text()).toContain('<svg');
			}
		}
	});
});

describe('Custom API Call', () => {
	it("n8n adds none of its own to the pack's nodes (it would lead to the HTTP Request node, which gets 401): each list ends with the pack's", async () => {
		const headers = { cookie: e2e.api.cookie };
		type Description = {
			name: string;
			properties: Array<{ name: string; options?: Array<{ name: string; value: unknown }> }>;
		};
		const nodes = (await (
			await fetch(`${e2e.n8n.url}/types/nodes.json`, { headers })
		).json()) as Description[];
		const actionNodes = nodes.filter(
			(n) => n.name.startsWith(`${PKG}.`) && !/Trigger$/.test(n.name),
		);
		expect(actionNodes).toHaveLength(6);
		for (const n of actionNodes) {
			const lists = n.properties.filter((p) => p.name === 'resource' || p.name === 'operation');
			expect(lists.length).toBeGreaterThan(2);
			for (const p of lists) {
				expect([n.name, p.options!.map((o) => o.value)]).toEqual([
					n.name,
					expect.not.arrayContaining(['__CUSTOM_API_CALL__']),
				]);
				expect([n.name, p.options!.at(-1)]).toEqual([
					n.name,
					expect.objectContaining({ name: 'Custom API Call', value: 'customApiCall' }),
				]);
			}
		}
	});
});

describe('the package as users install it', () => {
	it("is the npm pack tarball installed as n8n installs community packages, n8n-workflow resolving to n8n's own copy", () => {
		const nodes = join(e2e.n8n.userFolder, '.n8n', 'nodes');
		const installed = join(nodes, 'node_modules', PKG);
		expect(lstatSync(installed).isSymbolicLink()).toBe(false);
		const pkg = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Record<
			string,
			unknown
		>;
		const ours = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<
			string,
			unknown
		>;
		expect(pkg).toMatchObject({ name: PKG, version: ours.version, n8n: ours.n8n });
		// n8n drops the peer and dev dependencies: no second n8n-workflow next to the pack.
		expect(pkg.peerDependencies).toBeUndefined();
		expect(existsSync(join(nodes, 'node_modules', 'n8n-workflow'))).toBe(false);
		expect(existsSync(join(installed, 'node_modules'))).toBe(false);
		expect(existsSync(join(installed, 'nodes'))).toBe(false); // sources are not published
		expect(JSON.parse(readFileSync(join(nodes, 'package.json'), 'utf8'))).toMatchObject({
			dependencies: { [PKG]: ours.version },
		});
	});

	it('shows the nodes in the nodes panel under their codex categories and search aliases', async () => {
		const nodes = (await (
			await fetch(`${e2e.n8n.url}/types/nodes.json`, { headers: { cookie: e2e.api.cookie } })
		).json()) as Array<{ name: string; codex?: { categories?: string[]; alias?: string[] } }>;
		const codex = (name: string) => nodes.find((n) => n.name === `${PKG}.${name}`)?.codex;
		expect(codex('businessPlatformSales')).toMatchObject({
			categories: ['Sales'],
			alias: expect.arrayContaining(['CRM', 'Deal', 'Contact']),
		});
		expect(codex('businessPlatformPeople')?.alias).toEqual(
			expect.arrayContaining(['Payroll', 'Employee']),
		);
		expect(codex('businessPlatformCampaigns')?.alias).toEqual(
			expect.arrayContaining(['Campaign', 'Email Marketing']),
		);
		expect(codex('businessPlatformSalesTrigger')?.alias).toEqual(
			expect.arrayContaining(['Invoice', 'Deal']),
		);
	});
});

describe('one workflow per node: create → get → list → update → delete', () => {
	it('Sales (contact)', async () => {
		sb.resetStats();
		const res = await e2e.call('sales-crud', {
			name: 'E2E Person',
			email: 'e2e.person@example.com',
		});
		expect(res.status).toBe(200);
		expect(res.body).toEqual([{ deleted: true, id: expect.any(Number) }]);
		const id = res.body[0].id;
		const routes = sb.requests().map((r) => `${r.method} ${r.route}`);
		expect(routes).toEqual(
			expect.arrayContaining([
				'POST POST /v1/crm/contacts',
				'GET GET /v1/crm/contacts/:id',
				'PATCH PATCH /v1/crm/contacts/:id',
				'GET GET /v1/crm/contacts',
				'DELETE DELETE /v1/crm/contacts/:id',
			]),
		);
		const patched = sb.requests().find((r) => r.method === 'PATCH')!;
		expect(JSON.parse(patched.body!)).toEqual({ name: 'E2E Person (updated)' });
		expect(sb.store.tenant(1).contacts.has(id)).toBe(false);
	});

	it('Campaigns (category)', async () => {
		sb.resetStats();
		const res = await e2e.call('campaigns-crud', { name: 'E2E Category' });
		expect(res.status).toBe(200);
		expect(res.body).toEqual([{ deleted: true, id: expect.any(Number) }]);
		expect(sb.store.tenant(1).categories.has(res.body[0].id)).toBe(false);
		expect(sb.requests().map((r) => r.method)).toEqual(
			expect.arrayContaining(['POST', 'GET', 'PATCH', 'DELETE']),
		);
		expect(JSON.parse(sb.requests().find((r) => r.method === 'PATCH')!.body!)).toMatchObject({
			name: 'E2E Category (updated)',
		});
	});

	it('People (user)', async () => {
		sb.resetStats();
		const res = await e2e.call('people-crud', { firstName: 'Eve', email: 'eve.e2e@acme.example' });
		expect(res.status).toBe(200);
		expect(res.body).toEqual([expect.objectContaining({ deleted: true })]);
		expect(
			sb.store
				.tenant(1)
				.peopleUsers.values()
				.some((u) => u.emailId === 'eve.e2e@acme.example'),
		).toBe(false);
		const patch = sb.requests().find((r) => r.method === 'PATCH')!;
		expect(JSON.parse(patch.body!)).toMatchObject({ department: 'QA' });
	});
});

describe('continue on fail in a real run', () => {
	it('a batch with one bad item outputs the error on that item and processes the others', async () => {
		const [a, b] = sb.store
			.tenant(1)
			.contacts.values()
			.map((c) => c.id as number);
		const res = await e2e.call('continue-on-fail', { ids: [a, 99999999, b] });
		expect(res.status).toBe(200);
		expect(res.body).toHaveLength(3);
		expect(res.body[0]).toMatchObject({ id: a });
		expect(res.body[1]).toMatchObject({ error: expect.stringMatching(/404/) });
		expect(res.body[2]).toMatchObject({ id: b });
	});
});

describe('reading "={{ $json.key }}" without n8n (n8n-internals 5) under the expression engine n8n runs by default (vm)', () => {
	it('two items with the same values give the same contact, whether n8n evaluated the field or the pack read it from the item', async () => {
		expectSameOutcomes(await shortcutOutcomes(e2e.call, sb, 'shared'));
	});
});
