/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The bad-input table: wrong types, empty required fields, malformed JSON, unknown
 * picker values, huge payloads, ids that do not exist, bad base URLs and bad trigger
 * settings, across the three action nodes and the trigger, run through n8n-core
 * against the sandbox. Each must stop with an error that names the field and the item,
 * before any request when the input is wrong locally (the sandbox's request log is
 * read), and without a token or the client secret anywhere in the error. Non-ASCII
 * values must work, not fail: they are checked to round-trip. The table is written to
 * bench/results/bad-input.md.
 *
 * Each case runs its bad item alone (what was sent, the error), and, when the node can
 * read the bad value from its item, between two good items with continue-on-fail (the
 * bad item must carry its own index, the good ones must succeed).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';

import type { IBinaryKeyData, IDataObject } from 'n8n-workflow';

import { decodeNotes } from '../../nodes/BusinessPlatformSales/resources/activity/common';
import { columnFields } from '../../nodes/BusinessPlatformSales/methods/tables';
import type { PlatformTable } from '../../nodes/BusinessPlatformSales/common/tables';
import type { LoggedRequest } from '../../sandbox/src/server';
import { additionalData } from '../../testbed/harness/additional-data';
import { createHarness, type Harness, type NodeRun } from '../../testbed/harness/run';
import {
	activateWebhook,
	deliverWebhook,
	triggerWorkflow,
	webhookData,
	webhookMethod,
} from '../../testbed/harness/triggers';
import { useSandbox } from '../helpers/sandbox';
import { fileTuning } from '../helpers/tuning';

/** This file's tunables and clocks (test/helpers/tuning.ts): the harness's nodes run with them. */
const tuning = fileTuning();

const ctx = useSandbox({ rows: 30 });
const sb = () => ctx.sb;
const tenant = () => ctx.sb.store.tenant(1);
let h: Harness;
let defaultBaseDelay = 0;

const SALES = 'businessPlatformSales';
const CAMPAIGNS = 'businessPlatformCampaigns';
const PEOPLE = 'businessPlatformPeople';

const rl = (value: unknown) => ({ __rl: true, mode: 'id', value });

/** The index of the bad item among a case's items. */
const BAD = 1;
/** The node a case runs: the first part of its `where`. */
const NODES: Record<string, string> = { Sales: SALES, Campaigns: CAMPAIGNS, People: PEOPLE };
function nodeOf(c: Case): string {
	const node = NODES[c.where.split(' → ')[0]];
	if (!node) throw new Error(`case "${c.input}": "${c.where}" names no action node`);
	return node;
}

// ------------------------------------------------------------------ fixtures --

const firstId = (list: Array<Record<string, unknown>>, key = 'id') => list[0][key];
const contactId = () => firstId(tenant().contacts.values()) as number;
const dealId = () => firstId(tenant().deals.values()) as number;
const activityId = () => firstId(tenant().activities.values()) as number;
const pipelineId = () => firstId(tenant().pipelines.values()) as number;
const categoryId = () => firstId(tenant().categories.values()) as number;
const peopleUserId = () =>
	String(
		firstId(
			tenant()
				.peopleUsers.values()
				.filter((u) => u.status !== 'draft'),
			'userId',
		),
	);
const payrunId = () => String(firstId(tenant().payruns.values(), '_id'));
const tableOf = (objectType: string) =>
	(tenant().tables.values() as unknown as PlatformTable[]).find(
		(t) => t.objectType === objectType,
	)!;
/** The Columns parameter as n8n's editor saves it (with the column list it loaded). */
const columns = (table: PlatformTable, value: IDataObject) => ({
	mappingMode: 'defineBelow',
	value,
	matchingColumns: [],
	schema: columnFields(table, true),
	attemptToConvertTypes: false,
	convertFieldsToString: false,
});

// --------------------------------------------------------------------- cases --

type Where = 'node' | 'platform' | 'network' | 'accepted';

interface Outcome {
	error?: unknown;
	/** What the bad input sent (default: every request since the case started). */
	sent?: LoggedRequest[];
	/** Errors of other runs of the case (continue-on-fail items), checked for secrets too. */
	more?: unknown[];
	itemNote: string;
}

interface Case {
	input: string;
	/** Node → resource → operation, as the table shows it. */
	where: string;
	refusedBy: Where;
	/** What the message and description must say (the field, the resource, the status). */
	names?: RegExp;
	params?: () => IDataObject;
	/** The bad item between two good ones; without them, one empty item, run alone only. */
	items?: () => [good: IDataObject, bad: IDataObject, good: IDataObject];
	/** Items with binary data. */
	binary?: (i: number) => IBinaryKeyData | undefined;
	/** Requests allowed before a refusal by the node: reads only (e.g. the table's columns). */
	readsFirst?: boolean;
	/** Credential fields that differ from the sandbox's (bad base URLs): the case runs with a harness of its own. */
	credential?: IDataObject;
	/** For accepted inputs: the round trip to check. */
	check?: (run: NodeRun) => void;
	/** Cases that are not a node run (the trigger). */
	custom?: () => Promise<Outcome>;
}

const bigNote = () => 'n'.repeat(25 * 1024 * 1024);

const CASES: Case[] = [
	// ----------------------------------------------------------- Sales -----
	{
		input: 'Text in an ID field: Contact "abc" (from an expression)',
		where: 'Sales → Contact → Get',
		refusedBy: 'node',
		names: /Contact must be a whole number, got "abc"/,
		params: () => ({ resource: 'contact', operation: 'get', contactId: rl('={{ $json.id }}') }),
		items: () => [{ id: contactId() }, { id: 'abc' }, { id: contactId() }],
	},
	{
		input: 'ID from an expression whose key is missing (empty)',
		where: 'Sales → Deal → Get',
		refusedBy: 'node',
		names: /Deal must be a whole number, got ""/,
		params: () => ({ resource: 'deal', operation: 'get', dealId: rl('={{ $json.dealId }}') }),
		items: () => [{ dealId: dealId() }, { id: dealId() }, { dealId: dealId() }],
	},
	{
		input: 'Decimal number as an ID: 12.5',
		where: 'Sales → Activity → Get',
		refusedBy: 'node',
		names: /Activity must be a whole number, got "12.5"/,
		params: () => ({ resource: 'activity', operation: 'get', activityId: rl('={{ $json.id }}') }),
		items: () => [{ id: activityId() }, { id: 12.5 }, { id: activityId() }],
	},
	{
		input: 'Contact ID that does not exist: 99999999',
		where: 'Sales → Contact → Get',
		refusedBy: 'platform',
		names: /answered 404: Contact not found[\s\S]*check the ID/,
		params: () => ({ resource: 'contact', operation: 'get', contactId: rl('={{ $json.id }}') }),
		items: () => [{ id: contactId() }, { id: 99999999 }, { id: contactId() }],
	},
	{
		input: 'Empty required field: contact Name of blanks',
		where: 'Sales → Contact → Create',
		refusedBy: 'node',
		names: /Name is empty/,
		params: () => ({
			resource: 'contact',
			operation: 'create',
			name: '={{ $json.name }}',
			type: 'person',
		}),
		items: () => [{ name: 'Bad Input Good A' }, { name: '   ' }, { name: 'Bad Input Good B' }],
	},
	{
		input: 'Not an email address: "not-an-email"',
		where: 'Sales → Contact → Create or Update',
		refusedBy: 'node',
		names: /Email "not-an-email" is not an email address/,
		params: () => ({
			resource: 'contact',
			operation: 'upsert',
			email: '={{ $json.email }}',
			name: 'Upsert Person',
			type: 'person',
		}),
		items: () => [
			{ email: 'bad-input-a@example.com' },
			{ email: 'not-an-email' },
			{ email: 'bad-input-b@example.com' },
		],
	},
	{
		input: 'Empty update: no Update Fields',
		where: 'Sales → Contact → Update',
		refusedBy: 'node',
		names: /Nothing to update[\s\S]*Update Fields/,
		params: () => ({
			resource: 'contact',
			operation: 'update',
			contactId: rl(String(contactId())),
			updateFields: {},
		}),
	},
	{
		input: 'One non-numeric ID in a list: "1, two, 3"',
		where: 'Sales → Contact → Bulk Update',
		refusedBy: 'node',
		names: /Contact IDs must be a whole number, got "two"/,
		params: () => ({
			resource: 'contact',
			operation: 'bulkUpdate',
			contactIds: '1, two, 3',
			updateFields: { visibilityType: 'public' },
		}),
	},
	{
		input: 'Unknown label ID from an expression: 987654',
		where: 'Sales → Contact → Create',
		refusedBy: 'platform',
		names: /answered 400: label_id 987654 does not exist[\s\S]*label_id: unknown label/,
		params: () => ({
			resource: 'contact',
			operation: 'create',
			name: 'Label Test',
			type: 'person',
			additionalFields: { labelId: '={{ $json.label }}' },
		}),
		items: () => [{ label: '' }, { label: 987654 }, { label: '' }],
	},
	{
		input: 'Huge payload: a 25 MB note',
		where: 'Sales → Contact → Create',
		refusedBy: 'platform',
		names: /answered 413[\s\S]*too large/,
		params: () => ({
			resource: 'contact',
			operation: 'create',
			name: 'Huge Note',
			type: 'person',
			additionalFields: { note: bigNote() },
		}),
	},
	{
		input: 'Non-ASCII name and note: "Zoë Müller 日本 🚀", "Grüße aus Köln — 東京 🎉"',
		where: 'Sales → Contact → Create',
		refusedBy: 'accepted',
		params: () => ({
			resource: 'contact',
			operation: 'create',
			name: 'Zoë Müller 日本 🚀',
			type: 'person',
			additionalFields: { note: 'Grüße aus Köln — 東京 🎉', email: 'zoë@example.com' },
		}),
		check: (run) => {
			const stored = tenant().contacts.get(run.json[0].id as number)!;
			expect(stored).toMatchObject({
				name: 'Zoë Müller 日本 🚀',
				note: 'Grüße aus Köln — 東京 🎉',
				email: 'zoë@example.com',
			});
			expect(run.json[0]).toMatchObject({
				name: 'Zoë Müller 日本 🚀',
				note: 'Grüße aus Köln — 東京 🎉',
			});
		},
	},
	{
		input: 'End before start',
		where: 'Sales → Activity → Create',
		refusedBy: 'node',
		names: /End \(2026-03-01T09:00:00.000Z\) is before Start \(2026-03-01T10:00:00.000Z\)/,
		params: () => ({
			resource: 'activity',
			operation: 'create',
			name: 'Call',
			activityType: 'call',
			start: '2026-03-01T10:00:00Z',
			end: '={{ $json.end }}',
		}),
		items: () => [
			{ end: '2026-03-01T11:00:00Z' },
			{ end: '2026-03-01T09:00:00Z' },
			{ end: '2026-03-01T10:30:00Z' },
		],
	},
	{
		input: 'A date that is not a date: "next Tuesday-ish"',
		where: 'Sales → Activity → Create',
		refusedBy: 'node',
		names: /Start is not a date/,
		params: () => ({
			resource: 'activity',
			operation: 'create',
			name: 'Meeting',
			activityType: 'meeting',
			start: '={{ $json.start }}',
			end: '2026-03-02T11:00:00Z',
		}),
		items: () => [
			{ start: '2026-03-02T10:00:00Z' },
			{ start: 'next Tuesday-ish' },
			{ start: '2026-03-02T09:00:00Z' },
		],
	},
	{
		input: 'Filter text the filter language cannot carry: "Call, follow-up"',
		where: 'Sales → Activity → Get Many',
		refusedBy: 'node',
		names: /Name "Call, follow-up" cannot contain a comma/,
		params: () => ({
			resource: 'activity',
			operation: 'getAll',
			returnAll: false,
			limit: 2,
			filters: { name: '={{ $json.name }}' },
		}),
		items: () => [{ name: 'Call' }, { name: 'Call, follow-up' }, { name: 'Meeting' }],
	},
	{
		input: 'Non-ASCII activity notes: "Café ☕ — 会議メモ 📝"',
		where: 'Sales → Activity → Create',
		refusedBy: 'accepted',
		params: () => ({
			resource: 'activity',
			operation: 'create',
			name: 'Réunion 東京',
			activityType: 'meeting',
			start: '2026-03-03T10:00:00Z',
			end: '2026-03-03T11:00:00Z',
			additionalFields: { notes: 'Café ☕ — 会議メモ 📝' },
		}),
		check: (run) => {
			const stored = tenant().activities.get(run.json[0].id as number)!;
			// Stored as the platform keeps notes (base64 of the UTF-8 text), output as the text.
			expect(stored.notes).toBe(Buffer.from('Café ☕ — 会議メモ 📝', 'utf8').toString('base64'));
			expect(decodeNotes(stored.notes)).toBe('Café ☕ — 会議メモ 📝');
			expect(run.json[0]).toMatchObject({ name: 'Réunion 東京', notes: 'Café ☕ — 会議メモ 📝' });
		},
	},
	{
		input: 'Unknown pipeline ID: 987654',
		where: 'Sales → Deal → Create',
		refusedBy: 'platform',
		names: /answered 4\d\d[\s\S]*pipeline/i,
		params: () => ({
			resource: 'deal',
			operation: 'create',
			name: 'Pipeline Test',
			pipelineId: '={{ $json.pipeline }}',
		}),
		items: () => [{ pipeline: '' }, { pipeline: 987654 }, { pipeline: '' }],
	},
	{
		input: 'Unknown stage ID: 987654',
		where: 'Sales → Deal → Create',
		refusedBy: 'platform',
		names: /answered 4\d\d[\s\S]*stage/i,
		params: () => ({ resource: 'deal', operation: 'create', name: 'Stage Test', stageId: 987654 }),
	},
	{
		input: 'A stage ID past 2^53 (it would be sent rounded): "9007199254740993"',
		where: 'Sales → Deal → Create',
		refusedBy: 'node',
		names: /Stage "9007199254740993" is too large to send exactly/,
		params: () => ({
			resource: 'deal',
			operation: 'create',
			name: 'Stage Test',
			stageId: '9007199254740993',
		}),
	},
	{
		input: 'Closing date in a foreign format: "31/12/2026"',
		where: 'Sales → Deal → Create',
		refusedBy: 'node',
		names: /Closing Date is not a date: "31\/12\/2026"/,
		params: () => ({
			resource: 'deal',
			operation: 'create',
			name: 'Closing Test',
			additionalFields: { closingDate: '={{ $json.closing }}' },
		}),
		items: () => [{ closing: '2026-12-31' }, { closing: '31/12/2026' }, { closing: '2026-11-30' }],
	},
	{
		input: 'Deal IDs that do not exist in a bulk update: "<existing>,99999998"',
		where: 'Sales → Deal → Bulk Update',
		refusedBy: 'platform',
		names: /answered 404: Deal not found[\s\S]*PATCH \/v1\/crm\/deals/,
		params: () => ({
			resource: 'deal',
			operation: 'bulkUpdate',
			dealIds: '={{ $json.ids }}',
			updateFields: { reason: 'bad input test' },
		}),
		items: () => [
			{ ids: String(dealId()) },
			{ ids: `${dealId()},99999998` },
			{ ids: String(dealId()) },
		],
	},
	{
		input: 'A name where a picker ID is expected: pipeline "Sales pipeline" (expression)',
		where: 'Sales → Deal → Update',
		refusedBy: 'node',
		names: /Pipeline must be a whole number, got "Sales pipeline"/,
		params: () => ({
			resource: 'deal',
			operation: 'update',
			dealId: rl(String(dealId())),
			updateFields: { pipelineId: 'Sales pipeline' },
		}),
	},
	{
		input: 'Number out of range: stage deal probability 150',
		where: 'Sales → Pipeline → Create',
		refusedBy: 'node',
		names: /Stages: the deal probability of "Qualify" must be a whole number from 0 to 100/,
		params: () => ({
			resource: 'pipeline',
			operation: 'create',
			name: 'Out of range',
			stages: { stage: [{ name: 'Qualify', dealProbability: 150, rottingDays: 0, helpText: '' }] },
		}),
	},
	{
		input: 'Record column by an unknown name: "Nope"',
		where: 'Sales → Record → Create',
		refusedBy: 'node',
		names: /Column "Nope" is not in the table[\s\S]*Columns: Name, Email/,
		params: () => ({
			resource: 'record',
			operation: 'create',
			tableId: rl(tableOf('CONTACT')._id),
			columns: columns(tableOf('CONTACT'), { Name: 'Unknown Column', Nope: 'x' }),
		}),
	},
	{
		input: 'Option name not among the column\'s options: Type "Robot"',
		where: 'Sales → Record → Create',
		refusedBy: 'node',
		readsFirst: true,
		names: /Column "Type" has no option "Robot"[\s\S]*Allowed options: Person, Organization/,
		params: () => ({
			resource: 'record',
			operation: 'create',
			tableId: rl(tableOf('CONTACT')._id),
			columns: columns(tableOf('CONTACT'), {
				Name: '={{ $json.name }}',
				Type: '={{ $json.type }}',
			}),
		}),
		items: () => [
			{ name: 'Option A', type: 'Person' },
			{ name: 'Option B', type: 'Robot' },
			{ name: 'Option C', type: 'organization' },
		],
	},
	{
		input: 'Text in a number column: Score "twelve"',
		where: 'Sales → Record → Create',
		refusedBy: 'node',
		readsFirst: true,
		names: /Column "Score" takes a number, got "twelve"/,
		params: () => ({
			resource: 'record',
			operation: 'create',
			tableId: rl(tableOf('CONTACT')._id),
			columns: columns(tableOf('CONTACT'), { Name: 'Score Test', Score: '={{ $json.score }}' }),
		}),
		items: () => [{ score: 12 }, { score: 'twelve' }, { score: '7.5' }],
	},
	{
		input: 'Malformed JSON in a JSON column: Products \'[{"sku": \'',
		where: 'Sales → Record → Create',
		refusedBy: 'node',
		readsFirst: true,
		names: /Column "Products" is not valid JSON/,
		params: () => ({
			resource: 'record',
			operation: 'create',
			tableId: rl(tableOf('DEAL')._id),
			columns: columns(tableOf('DEAL'), { Name: 'JSON Test', Products: '={{ $json.products }}' }),
		}),
		items: () => [{ products: '[{"sku": "A-1"}]' }, { products: '[{"sku": ' }, { products: '[]' }],
	},
	{
		input: 'Record ID that does not exist',
		where: 'Sales → Record → Get',
		refusedBy: 'platform',
		names: /answered 404/,
		params: () => ({
			resource: 'record',
			operation: 'get',
			tableId: rl(tableOf('CONTACT')._id),
			recordId: rl('ffffffffffffffffffffffff'),
		}),
	},
	// -------------------------------------------------------- Campaigns -----
	{
		input: 'Empty required field: category Name',
		where: 'Campaigns → Category → Create',
		refusedBy: 'node',
		names: /Name is empty/,
		params: () => ({ resource: 'category', operation: 'create', name: '={{ $json.name }}' }),
		items: () => [{ name: 'Bad Input Category A' }, { name: '' }, { name: 'Bad Input Category B' }],
	},
	{
		input: 'Malformed JSON: Template JSON \'{"body": \'',
		where: 'Campaigns → Email Template → Create',
		refusedBy: 'node',
		names: /Template JSON is not valid JSON/,
		params: () => ({
			resource: 'emailTemplate',
			operation: 'create',
			name: 'Broken',
			categoryId: categoryId(),
			templateJson: '={{ $json.design }}',
			htmlSource: 'text',
		}),
		items: () => [{ design: '{"body": {"rows": []}}' }, { design: '{"body": ' }, { design: '{}' }],
	},
	{
		input: 'HTML from a binary field the item does not have: "data"',
		where: 'Campaigns → Email Template → Create',
		refusedBy: 'node',
		names: /The input item has no binary field "data"/,
		params: () => ({
			resource: 'emailTemplate',
			operation: 'create',
			name: 'From file',
			categoryId: categoryId(),
			templateJson: '{}',
			htmlSource: 'binary',
			binaryPropertyName: 'data',
		}),
		items: () => [{}, {}, {}],
		binary: (i) =>
			i === 1
				? undefined
				: {
						data: {
							data: Buffer.from('<p>Hallo Welt</p>').toString('base64'),
							mimeType: 'text/html',
							fileName: 'page.html',
						},
					},
	},
	{
		input: 'A category name where its ID is expected: "Newsletters"',
		where: 'Campaigns → Email Template → Create',
		refusedBy: 'node',
		names: /Category must be a whole number, got "Newsletters"/,
		params: () => ({
			resource: 'emailTemplate',
			operation: 'create',
			name: 'Category Test',
			categoryId: 'Newsletters',
			templateJson: '{}',
			htmlSource: 'text',
		}),
	},
	{
		input: 'Form ID that does not exist: 99999999',
		where: 'Campaigns → Form → Get',
		refusedBy: 'platform',
		names: /answered 404/,
		params: () => ({ resource: 'form', operation: 'get', formId: rl('99999999') }),
	},
	{
		input: 'Empty output field name for the markup file',
		where: 'Campaigns → Form → Get Template Markup',
		refusedBy: 'node',
		names: /Put Output File in Field is empty/,
		params: () => ({
			resource: 'form',
			operation: 'getMarkup',
			formId: rl(String(firstId(tenant().forms.values()))),
			asBinary: true,
			binaryPropertyName: ' ',
		}),
	},
	// ----------------------------------------------------------- People -----
	{
		input: 'Not an email address: "bob"',
		where: 'People → User → Create',
		refusedBy: 'node',
		names: /Email "bob" is not an email address/,
		params: () => ({
			resource: 'user',
			operation: 'create',
			firstName: 'Bob',
			emailId: '={{ $json.email }}',
		}),
		items: () => [{ email: 'bob.a@example.com' }, { email: 'bob' }, { email: 'bob.b@example.com' }],
	},
	{
		input: 'Empty required field: user First Name',
		where: 'People → User → Create',
		refusedBy: 'node',
		names: /First Name is empty/,
		params: () => ({
			resource: 'user',
			operation: 'create',
			firstName: '={{ $json.first }}',
			lastName: 'Nobody',
		}),
		items: () => [{ first: 'Ann' }, { first: '' }, { first: 'Ben' }],
	},
	{
		input: 'Malformed JSON: Custom Fields (JSON) \'{"team": }\'',
		where: 'People → User → Create',
		refusedBy: 'node',
		names: /Custom Fields \(JSON\) is not valid JSON/,
		params: () => ({
			resource: 'user',
			operation: 'create',
			firstName: 'Json',
			otherFields: { customFields: '{"team": }' },
		}),
	},
	{
		input: 'JSON of the wrong shape: Custom Field Data (JSON) "{}" instead of a list',
		where: 'People → User → Create',
		refusedBy: 'node',
		names: /Custom Field Data \(JSON\) must be a JSON array/,
		params: () => ({
			resource: 'user',
			operation: 'create',
			firstName: 'Shape',
			otherFields: { customFieldData: '{"a": 1}' },
		}),
	},
	{
		input: 'Non-ASCII user: "Jürgen Ñúñez", last name "日本 太郎"',
		where: 'People → User → Create',
		refusedBy: 'accepted',
		params: () => ({
			resource: 'user',
			operation: 'create',
			firstName: 'Jürgen Ñúñez',
			lastName: '日本 太郎',
			emailId: 'jurgen@example.com',
		}),
		check: (run) => {
			const stored = tenant()
				.peopleUsers.values()
				.find((u) => u.userId === run.json[0].userId)!;
			expect(stored).toMatchObject({ firstName: 'Jürgen Ñúñez', lastName: '日本 太郎' });
			expect(run.json[0]).toMatchObject({ firstName: 'Jürgen Ñúñez', lastName: '日本 太郎' });
		},
	},
	{
		input: 'End before start: work period 07/31 → 07/01',
		where: 'People → Payrun → Create',
		refusedBy: 'node',
		names: /Work Period End is before Work Period Start/,
		params: () => ({
			resource: 'payrun',
			operation: 'create',
			workPeriodFrom: '2024-07-31',
			workPeriodTo: '2024-07-01',
			isForAllUsers: true,
		}),
	},
	{
		input: 'Impossible date: "02/30/2024"',
		where: 'People → Payrun → Get Many',
		refusedBy: 'node',
		names: /Pay Period Start is not a date/,
		params: () => ({
			resource: 'payrun',
			operation: 'getAll',
			returnAll: true,
			filters: { periodFrom: '={{ $json.from }}', periodTo: '2024-03-31' },
		}),
		items: () => [{ from: '2024-01-01' }, { from: '02/30/2024' }, { from: '2024-02-01' }],
	},
	{
		input: 'Text in a number field: year "20x4"',
		where: 'People → Payrun → Get Many by Year',
		refusedBy: 'node',
		names: /Year must be a four-digit year, got "20x4"/,
		params: () => ({
			resource: 'payrun',
			operation: 'getAllByYear',
			year: '={{ $json.year }}',
			returnAll: false,
			limit: 1,
		}),
		items: () => [{ year: 2024 }, { year: '20x4' }, { year: 2023 }],
	},
	// Issue 32, finding 8: an ID that a server or proxy decodes into ".." is refused like "..".
	{
		input: 'Encoded dots as an ID: Record "%2e%2e" (and Table "%252e%252e")',
		where: 'Sales → Record → Delete',
		refusedBy: 'node',
		names: /Record.*"%2e%2e" is not an ID/,
		params: () => ({
			resource: 'record',
			operation: 'delete',
			tableId: rl(tableOf('CONTACT')._id),
			recordId: rl('%2e%2e'),
		}),
	},
	{
		input: 'Doubly encoded dots as a table ID: "%252e%252e"',
		where: 'Sales → Record → Delete',
		refusedBy: 'node',
		names: /Table.*"%252e%252e" is not an ID/,
		params: () => ({
			resource: 'record',
			operation: 'delete',
			tableId: rl('%252e%252e'),
			recordId: rl('ffffffffffffffffffffffff'),
		}),
	},
	{
		input: 'Encoded dots as an employee: "%2E%2e"',
		where: 'People → Paystub → Get Many',
		refusedBy: 'node',
		names: /Employee.*"%2E%2e" is not an ID/,
		params: () => ({
			resource: 'paystub',
			operation: 'getAll',
			employeeId: rl('%2E%2e'),
			returnAll: true,
		}),
	},
	// Issue 32: each range check of the node, crossed on both sides.
	{
		input: 'Number out of range: stage deal probability -1, rotting days -1',
		where: 'Sales → Pipeline → Create',
		refusedBy: 'node',
		names: /Stages: the deal probability of "Qualify" must be a whole number from 0 to 100/,
		params: () => ({
			resource: 'pipeline',
			operation: 'create',
			name: 'Below range',
			stages: { stage: [{ name: 'Qualify', dealProbability: -1, rottingDays: -1, helpText: '' }] },
		}),
	},
	{
		input: 'Number out of range: rotting days -1',
		where: 'Sales → Pipeline → Create',
		refusedBy: 'node',
		names: /Stages: the rotting days of "Qualify" must be a whole number, 0 or more/,
		params: () => ({
			resource: 'pipeline',
			operation: 'create',
			name: 'Below range',
			stages: { stage: [{ name: 'Qualify', dealProbability: 10, rottingDays: -1, helpText: '' }] },
		}),
	},
	{
		input: 'Year below the range: 1899',
		where: 'People → Payrun → Get Many by Year',
		refusedBy: 'node',
		names: /Year must be a four-digit year, got "1899"/,
		params: () => ({ resource: 'payrun', operation: 'getAllByYear', year: 1899, returnAll: true }),
	},
	{
		input: 'Year above the range: 10000',
		where: 'People → Payrun → Get Many by Year',
		refusedBy: 'node',
		names: /Year must be a four-digit year, got "10000"/,
		params: () => ({ resource: 'payrun', operation: 'getAllByYear', year: 10000, returnAll: true }),
	},
	{
		input: 'Limit below 1: 0 (stages are cut to the Limit by the node)',
		where: 'Sales → Stage → Get Many',
		refusedBy: 'node',
		names: /Limit must be a whole number of 1 or more, got 0/,
		params: () => ({
			resource: 'stage',
			operation: 'getAll',
			pipelineId: String(pipelineId()),
			returnAll: false,
			limit: 0,
		}),
	},
	{
		input: 'Request Options → Timeout of 0 ms',
		where: 'Sales → Deal → Get Many',
		refusedBy: 'node',
		names: /Request Options → Timeout must be a number of milliseconds from 1/,
		params: () => ({
			resource: 'deal',
			operation: 'getAll',
			returnAll: false,
			limit: 1,
			requestOptions: { timeout: 0 },
		}),
	},
	// Issue 32, finding 6: a timeout past Node.js's longest timer would fire after 1 ms.
	{
		input: 'Request Options → Timeout of 2,147,483,648 ms (past 2^31 - 1)',
		where: 'Sales → Contact → Create',
		refusedBy: 'node',
		names: /Request Options → Timeout must be a number of milliseconds from 1 to 2147483647/,
		params: () => ({
			resource: 'contact',
			operation: 'create',
			name: 'Timeout Test',
			type: 'person',
			requestOptions: { timeout: 2 ** 31 },
		}),
	},
	{
		input: 'Request Options → Timeout of 2^53 + 2 ms',
		where: 'People → Payrun → Get Many',
		refusedBy: 'node',
		names: /Request Options → Timeout must be/,
		params: () => ({
			resource: 'payrun',
			operation: 'getAll',
			returnAll: false,
			limit: 1,
			requestOptions: { timeout: 2 ** 53 + 2 },
		}),
	},
	{
		input: 'Request Options → Parallel Requests of -1 (from an expression)',
		where: 'Campaigns → Category → Get Many',
		refusedBy: 'node',
		names: /Request Options → Parallel Requests must be a whole number from 1 to 20/,
		params: () => ({
			resource: 'category',
			operation: 'getAll',
			returnAll: false,
			limit: 1,
			requestOptions: { concurrency: '={{ -1 }}' },
		}),
	},
	{
		input: 'Half a pay period: start without end',
		where: 'People → Paystub → Get Many',
		refusedBy: 'node',
		names: /A pay period needs a start and an end/,
		params: () => ({
			resource: 'paystub',
			operation: 'getAll',
			employeeId: rl(peopleUserId()),
			returnAll: true,
			filters: { periodFrom: '2024-01-01' },
		}),
	},
	{
		input: 'Text in an ID field of a books-changing operation: journal entry "abc"',
		where: 'People → Payrun → Revert Journal Entry',
		refusedBy: 'node',
		names: /Journal Entry ID must be a whole number, got "abc"/,
		params: () => ({
			resource: 'payrun',
			operation: 'revertJournalEntry',
			payrunId: rl(payrunId()),
			jeId: 'abc',
			jeRevertDate: '2025-01-10',
		}),
	},
	{
		input: 'A journal entry ID past 2^53 (it would be sent rounded): 9007199254740993',
		where: 'People → Payrun → Revert Journal Entry',
		refusedBy: 'node',
		names: /Journal Entry ID "9007199254740993" is too large to send exactly/,
		params: () => ({
			resource: 'payrun',
			operation: 'revertJournalEntry',
			payrunId: rl(payrunId()),
			jeId: '9007199254740993',
			jeRevertDate: '2025-01-10',
		}),
	},
	{
		input: 'Component group ID that does not exist',
		where: 'People → Component Group → Get',
		refusedBy: 'platform',
		names: /Component group 000000000000000000000000 was not found|answered 404/,
		params: () => ({
			resource: 'componentGroup',
			operation: 'get',
			componentGroupId: '000000000000000000000000',
		}),
	},
	// ------------------------------------------------------- credentials -----
	{
		input: 'Wrong base URL: an unreachable port (http://127.0.0.1:1)',
		where: 'Campaigns → Form → Get Many',
		refusedBy: 'network',
		names: /Could not reach the Business Platform API \(connection refused\)[\s\S]*API Base URL/,
		credential: { baseUrl: 'http://127.0.0.1:1' },
		params: () => ({ resource: 'form', operation: 'getAll', returnAll: false, limit: 1 }),
	},
	{
		input: 'http:// base URL to a public host (http://api.example.com)',
		where: 'People → User → Get Many',
		refusedBy: 'node',
		names: /API Base URL must start with https:\/\//,
		credential: { baseUrl: 'http://api.example.com' },
		params: () => ({ resource: 'user', operation: 'getAll', returnAll: false, limit: 1 }),
	},
	{
		input: 'Regional base URL that is not a URL: "eu region"',
		where: 'Sales → Table → Get Many',
		refusedBy: 'node',
		names: /Regional API Base URL "eu region" is not a URL/,
		credential: { regionalBaseUrl: 'eu region' },
		params: () => ({ resource: 'table', operation: 'getAll', returnAll: false, limit: 1 }),
	},
	// ---------------------------------------------------------- Trigger -----
	{
		input: 'No event chosen',
		where: 'Trigger → activation',
		refusedBy: 'node',
		names: /No event chosen in "Events"/,
		custom: async () => ({
			error: await activationError({ events: [] }),
			itemNote: 'n.a. (activation, before any request)',
		}),
	},
	{
		input: 'Unknown event name from an expression: "CREATE_THING"',
		where: 'Trigger → activation',
		refusedBy: 'node',
		names: /Unknown event type in "Events": CREATE_THING/,
		custom: async () => ({
			error: await activationError({ events: '={{ ["CREATE_BILL", "CREATE_THING"] }}' }),
			itemNote: 'n.a. (activation, before any request)',
		}),
	},
	{
		input: 'Credential without a Client Secret',
		where: 'Trigger → activation',
		refusedBy: 'node',
		readsFirst: true,
		names: /credential lacks Client Secret/,
		custom: async () => ({
			error: await activationError(
				{ events: ['CREATE_BILL'] },
				createHarness(sb(), sb().issueTokens(), { clientSecret: '' }),
			),
			itemNote: 'n.a. (activation: the existing registrations are listed, nothing is registered)',
		}),
	},
	{
		input: 'A delivery with a wrong secret (forged call)',
		where: 'Trigger → webhook',
		refusedBy: 'node',
		custom: async () => {
			const t = triggerNode({ events: ['CREATE_BILL'] });
			await activateWebhook(t.wf, t.wd);
			const secret = String(
				((t.wf.staticData['node:Platform Trigger'] as IDataObject).secrets as IDataObject)
					.CREATE_BILL,
			);
			const seq = lastSeq();
			const res = fakeResponse();
			const out = await deliverWebhook(
				t.wf,
				t.wd,
				{
					body: { data: { id: 1 } },
					// Its last character changed (to x, or to y when it was an x: a random secret ends in x once in 62 runs).
					query: {
						event: 'CREATE_BILL',
						secret: `${secret.slice(0, -1)}${secret.endsWith('x') ? 'y' : 'x'}`,
					},
				},
				res,
			);
			const sent = requestsSince(seq);
			await webhookMethod('delete', t.wf, t.wd);
			expect(out).toEqual({ noWebhookResponse: true });
			expect(res.status).toBe(401);
			return {
				error: {
					message: `HTTP ${res.status}: ${String((JSON.parse(res.body) as IDataObject).message)}`,
				},
				sent,
				itemNote: 'n.a. (no workflow started)',
			};
		},
	},
];

// ------------------------------------------------------------------ helpers --

const lastSeq = () => sb().requests().at(-1)?.seq ?? 0;
const requestsSince = (seq: number): LoggedRequest[] =>
	sb()
		.requests()
		.filter((r) => r.seq > seq);

function secretsOf(harness: Harness): string[] {
	const data = harness.credentials.data();
	const tokens = (data.oauthTokenData ?? {}) as IDataObject;
	return [
		...Object.entries(tokens)
			.filter(([k]) => /token/i.test(k) && k !== 'token_type')
			.map(([, v]) => String(v)),
		sb().config.clientSecret,
	];
}

function expectNoSecrets(error: unknown, harness: Harness): void {
	const text = `${JSON.stringify(error)} ${inspect(error, { depth: 10, showHidden: true })}`;
	for (const s of secretsOf(harness)) expect(text).not.toContain(s);
}

const textOf = (e: unknown) => {
	const err = e as { message?: string; description?: string; error?: string };
	return `${err.message ?? err.error ?? ''} ${err.description ?? ''}`;
};

let triggerCounter = 0;
function triggerNode(parameters: IDataObject, harness: Harness = h) {
	const node = harness.node('businessPlatformSalesTrigger', parameters, 'Platform Trigger');
	node.webhookId = `bad-input-${++triggerCounter}`;
	const wf = triggerWorkflow(node, {});
	const [wd] = webhookData(
		wf,
		node,
		additionalData(harness.credentials, undefined, 'http://127.0.0.1:9'),
	);
	return { node, wf, wd };
}

async function activationError(parameters: IDataObject, harness: Harness = h): Promise<unknown> {
	const t = triggerNode(parameters, harness);
	return await activateWebhook(t.wf, t.wd).then(
		() => undefined,
		(e: unknown) => e,
	);
}

function fakeResponse() {
	const res = {
		status: 0,
		body: '',
		writeHead(status: number) {
			res.status = status;
			return res;
		},
		end(text?: string) {
			res.body = text ?? '';
			return res;
		},
	};
	return res;
}

const excerpt = (text: string) => {
	const t = text.replace(/\s+/g, ' ').trim();
	return t.length > 140 ? `${t.slice(0, 137)}…` : t;
};

function describeRequests(list: LoggedRequest[], error: unknown, refusedBy: Where): string {
	if (list.length === 0) {
		const attempts = /\((\d+) attempts\.\)/.exec(textOf(error));
		return attempts ? `no (nothing listening: ${attempts[1]} connection attempts)` : 'no';
	}
	const shown = list.map(
		(r) =>
			`${r.method} ${r.path.replace(/[0-9a-f]{24}/g, '{id}').replace(/\/\d+(?=\/|$)/g, '/{id}')} → ${r.status}`,
	);
	const unique = [...new Set(shown)];
	const reads = refusedBy === 'node' && list.every((r) => r.method === 'GET');
	return `${reads ? 'reads only: ' : 'yes: '}${unique.join(', ')}${list.length > unique.length ? ` (${list.length} requests)` : ''}`;
}

// ------------------------------------------------------------------- run --

interface Row {
	input: string;
	where: string;
	refusedBy: string;
	message: string;
	item: string;
	requests: string;
}
const rows: Row[] = [];

beforeAll(() => {
	defaultBaseDelay = tuning.retry.baseDelayMs;
	tuning.retry.baseDelayMs = 20;
	h = createHarness(sb(), sb().issueTokens());
});

afterAll(() => {
	tuning.retry.baseDelayMs = defaultBaseDelay;
	writeTable();
});

const withItems = (c: Case, items: IDataObject[], indexes: number[]) =>
	indexes.map((i) => ({ json: items[i], ...(c.binary?.(i) ? { binary: c.binary(i) } : {}) }));

it('has at least 30 distinct bad inputs across the three action nodes and the trigger', () => {
	const bad = CASES.filter((c) => c.refusedBy !== 'accepted');
	expect(new Set(bad.map((c) => c.input)).size).toBe(bad.length);
	expect(bad.length).toBeGreaterThanOrEqual(30);
	for (const prefix of ['Sales', 'Campaigns', 'People', 'Trigger'])
		expect(bad.some((c) => c.where.startsWith(prefix))).toBe(true);
});

describe.each(CASES)('$where: $input', (c) => {
	it(
		c.refusedBy === 'accepted'
			? 'works and round-trips'
			: `is refused by the ${c.refusedBy === 'platform' ? 'platform, naming the field or record' : c.refusedBy === 'network' ? 'network, saying so' : 'node, naming the field, before sending'}`,
		async () => {
			const harness = c.credential ? createHarness(sb(), sb().issueTokens(), c.credential) : h;
			const row: Row = {
				input: c.input,
				where: c.where,
				refusedBy: '',
				message: '',
				item: '',
				requests: '',
			};
			rows.push(row);
			const seq = lastSeq();

			if (c.custom) {
				const outcome = await c.custom();
				const sent = outcome.sent ?? requestsSince(seq);
				row.refusedBy = 'node';
				row.message = excerpt((outcome.error as { message?: string }).message ?? '');
				row.item = outcome.itemNote;
				row.requests = describeRequests(sent, outcome.error, c.refusedBy);
				expect(outcome.error).toBeDefined();
				if (c.names) expect(textOf(outcome.error)).toMatch(c.names);
				if (c.readsFirst) expect(sent.every((r) => r.method === 'GET')).toBe(true);
				else expect(sent).toHaveLength(0);
				expectNoSecrets(outcome.error, harness);
				return;
			}

			const items: IDataObject[] = c.items?.() ?? [{}];
			const bad = c.items ? BAD : 0;
			const node = nodeOf(c);
			const params = c.params!();

			// 1. The bad item alone: what was sent, and the error.
			const alone = await harness.run(node, params, withItems(c, items, [bad]));
			const sent = requestsSince(seq);
			row.requests = describeRequests(sent, alone.error, c.refusedBy);

			if (c.refusedBy === 'accepted') {
				expect(alone.error).toBeUndefined();
				c.check!(alone);
				row.refusedBy = 'accepted: round-trips';
				row.message = '—';
				row.item = '—';
				return;
			}

			expect(alone.error).toBeDefined();
			const text = textOf(alone.error);
			row.message = excerpt(alone.error!.message);
			row.refusedBy =
				c.refusedBy === 'platform'
					? `platform (${String(alone.error!.httpCode ?? sent.at(-1)?.status)})`
					: c.refusedBy;
			expect(text).toMatch(c.names!);
			expectNoSecrets(alone.error, harness);
			expect(alone.error!.context?.itemIndex).toBe(0);
			if (c.refusedBy === 'node') {
				if (c.readsFirst) expect(sent.every((r) => r.method === 'GET')).toBe(true);
				else expect(sent).toHaveLength(0);
			}
			if (c.refusedBy === 'platform') {
				expect(sent.length).toBeGreaterThan(0);
				expect(sent.at(-1)!.status).toBeGreaterThanOrEqual(400);
			}
			if (c.refusedBy === 'network') expect(sent).toHaveLength(0);

			// 2. Between two good items, with continue-on-fail: the bad one carries its own index.
			if (items.length === 1) {
				row.item = 'item 0 (itemIndex in the error)';
				return;
			}
			const all = await harness.run(
				node,
				params,
				withItems(
					c,
					items,
					items.map((_, i) => i),
				),
				{ continueOnFail: true },
			);
			expect(all.error).toBeUndefined();
			const byItem = (i: number) =>
				all.items
					.filter((it) => (it.pairedItem as { item: number }).item === i)
					.map((it) => it.json);
			const failed = byItem(bad);
			expect(failed).toHaveLength(1);
			expect(failed[0]).toMatchObject({ itemIndex: bad });
			expect(textOf(failed[0])).toMatch(c.names!);
			expectNoSecrets(failed[0], harness);
			for (let i = 0; i < items.length; i++) {
				if (i === bad) continue;
				const out = byItem(i);
				expect(out.length).toBeGreaterThan(0);
				for (const json of out) expect(json.error).toBeUndefined();
			}
			row.item = `item ${bad} of ${items.length} (continue-on-fail: the others succeed)`;
		},
	);
});

// ------------------------------------------------------------------- table --

function writeTable(): void {
	// `npm run report:faults` writes the table (npm test leaves tracked files alone), and only
	// from a full run (a run filtered with -t would leave it incomplete).
	if (process.env.BP_WRITE_REPORTS !== '1' || rows.length !== CASES.length) return;
	const list = cpus();
	const cell = (v: unknown) => String(v).replace(/\|/g, '\\|');
	const lines = [
		'# Bad input',
		'',
		`Generated by \`test/integration/bad-input.test.ts\` on ${new Date().toISOString().slice(0, 10)}.`,
		`Machine: ${list.length} × ${list[0]?.model?.replace(/\s+/g, ' ').trim() ?? 'unknown CPU'}, Node ${process.version}.`,
		'',
		'Each input runs through n8n-core against the sandbox. **Refused by**: the node (before sending the write; "reads only"',
		"means it first read what it needed, such as a table's columns), the platform (its status), or the network.",
		'**Item**: how the error names the item — alone it carries `itemIndex` 0; between two good items with continue-on-fail',
		'the bad one carries its own index and the good ones succeed. **Request sent**: what reached the sandbox for the bad',
		'item alone. No error contains a token or the client secret (checked on the whole error object).',
		'',
		'| # | Input | Node → operation | Refused by | Message (excerpt) | Item | Request sent |',
		'|---|---|---|---|---|---|---|',
		...rows.map(
			(r, i) =>
				`| ${[i + 1, r.input, r.where, r.refusedBy, r.message, r.item, r.requests].map(cell).join(' | ')} |`,
		),
		'',
	];
	const dir = join(__dirname, '..', '..', 'bench', 'results');
	mkdirSync(dir, { recursive: true });
	writeFileSync(join(dir, 'bad-input.md'), lines.join('\n'));
}
