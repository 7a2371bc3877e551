/**
 * Version 2 of the Sales and Campaigns nodes (issue 13): the pickers visible when the form
 * opens are resource locators, deals carry their contact, organization and owner as
 * objects, Activity → Create has contact pickers. Version 1 (saved workflows) keeps its
 * dropdowns and its JSON text; the other integration tests run version 1.
 */
import type { IDataObject } from 'n8n-workflow';

import { columnFields } from '../../nodes/BusinessPlatformSales/methods/tables';
import { searchContactLabels } from '../../nodes/BusinessPlatformSales/methods/contacts';
import {
	getPipelinesOrFirst,
	getPipelineStagesOrFirst,
	searchPipelines,
	searchPipelineStages,
} from '../../nodes/BusinessPlatformSales/methods/deals';
import { pickerContext } from '../../testbed/harness/pickers';
import { createHarness, type Harness } from '../../testbed/harness/run';
import { useSandbox } from '../helpers/sandbox';

const ctx = useSandbox();
let h: Harness;
beforeAll(() => {
	h = createHarness(ctx.sb);
});

const tenant = () => ctx.sb.store.tenant(1);
const rl = (id: unknown, mode = 'list') => ({ __rl: true, mode, value: String(id) });
const sales = (parameters: IDataObject, typeVersion = 2) =>
	h.run('businessPlatformSales', parameters, undefined, { typeVersion });
const pipelines = () => tenant().pipelines.values() as unknown as IDataObject[];
const person = () =>
	tenant()
		.contacts.values()
		.find((c) => c.type === 'person')!;
const org = () =>
	tenant()
		.contacts.values()
		.find((c) => c.type === 'organization')!;

describe('Sales version 2', () => {
	it('Deal → Create with the pipeline and stage picked from their lists; contact, organization and owner come out as objects', async () => {
		const p = pipelines()[1];
		const stage = (p.stages as IDataObject[])[1];
		const r = await sales({
			resource: 'deal',
			operation: 'create',
			name: 'Version 2 deal',
			pipelineId: rl(p.id),
			stageId: rl(stage.id, 'id'),
			additionalFields: {
				contactId: rl(person().id),
				organizationId: rl(org().id),
				ownerId: tenant().crmUsers[0].id,
			},
		});
		expect(r.error).toBeUndefined();
		const deal = r.json[0];
		expect(tenant().deals.get(deal.id as number)).toMatchObject({
			pipeline_id: p.id,
			stage_id: stage.id,
		});
		expect(deal.contact_info).toMatchObject({ id: person().id, name: person().name });
		expect(deal.organization_info).toMatchObject({ id: org().id });
		expect(typeof deal.owner_info).toBe('object');
	});

	it('Deal → Create with Pipeline and Stage left empty: the first pipeline and its first stage', async () => {
		const r = await sales({
			resource: 'deal',
			operation: 'create',
			name: 'Defaults',
			pipelineId: rl(''),
			stageId: rl(''),
		});
		expect(r.error).toBeUndefined();
		const stored = tenant().deals.get(r.json[0].id as number)!;
		expect(stored.pipeline_id).toBe(pipelines()[0].id);
	});

	it('Deal → Get: "Info as JSON Text" keeps the platform’s text; version 1 always did', async () => {
		const id = tenant()
			.deals.values()
			.find((d) => d.contact_id)!.id;
		const asText = await sales({
			resource: 'deal',
			operation: 'get',
			dealId: rl(id),
			simplify: false,
			options: { infoAsText: true },
		});
		expect(typeof asText.json[0].contact_info).toBe('string');
		const v2 = await sales({ resource: 'deal', operation: 'get', dealId: rl(id), simplify: false });
		expect(v2.json[0].contact_info).toEqual(JSON.parse(asText.json[0].contact_info as string));
		const v1 = await sales(
			{ resource: 'deal', operation: 'get', dealId: rl(id), simplify: false },
			1,
		);
		expect(v1.json[0].contact_info).toBe(asText.json[0].contact_info);
		const many = await sales({ resource: 'deal', operation: 'getAll', limit: 3, simplify: false });
		for (const d of many.json)
			if (d.contact_info !== null) expect(typeof d.contact_info).toBe('object');
	});

	it('Pipeline → Get, Stage → Get Many and Delete, Contact Label → Get take resource locators', async () => {
		const p = pipelines()[0];
		const got = await sales({ resource: 'pipeline', operation: 'get', pipelineId: rl(p.id) });
		expect(got.json[0]).toMatchObject({ id: p.id, name: p.name });
		const stages = await sales({
			resource: 'stage',
			operation: 'getAll',
			pipelineId: rl(p.id, 'id'),
			returnAll: true,
		});
		expect(stages.json.map((s) => s.id)).toEqual((p.stages as IDataObject[]).map((s) => s.id));
		const label = tenant().labels.values()[0];
		const l = await sales({ resource: 'contactLabel', operation: 'get', labelId: rl(label.id) });
		expect(l.json[0]).toMatchObject({ id: label.id, name: label.name });
		const won = (p.stages as IDataObject[]).find((s) => s.won_lost_status === 'won')!;
		const refused = await h.run(
			'businessPlatformSales',
			{ resource: 'stage', operation: 'delete', stageId: rl(won.id) },
			undefined,
			{ typeVersion: 2, continueOnFail: true },
		);
		expect(refused.json[0].error).toBeDefined();
		expect(tenant().pipelines.get(p.id as number)!.stages as IDataObject[]).toContainEqual(
			expect.objectContaining({ id: won.id }),
		);
	});

	it('Activity → Create: the picked contact and organization join the typed IDs', async () => {
		const others = tenant()
			.contacts.values()
			.filter((c) => c.type === 'person' && c.id !== person().id);
		const r = await sales({
			resource: 'activity',
			operation: 'create',
			name: 'Call with pickers',
			start: '2027-01-05T10:00:00Z',
			end: '2027-01-05T10:30:00Z',
			additionalFields: {
				contactId: rl(person().id),
				contactIds: `${String(others[0].id)}, ${String(person().id)}`,
				organizationId: rl(org().id),
			},
		});
		expect(r.error).toBeUndefined();
		const stored = tenant().activities.get(r.json[0].id as number)!;
		expect([...(stored.contact_ids as number[])].sort()).toEqual(
			[person().id, others[0].id].sort(),
		);
		expect(stored.organization_ids).toEqual([org().id]);
	});
});

describe('pickers', () => {
	const picker = (parameters: IDataObject, path: string) =>
		pickerContext(h, 'businessPlatformSales', parameters, path, 2);

	it('version 2: pipelines by name; the stages follow the chosen pipeline; a won stage is not "Won (won)"', async () => {
		const found = await searchPipelines.call(
			picker({ resource: 'deal', operation: 'create' }, 'parameters.pipelineId'),
		);
		expect(found.results.map((r) => r.name).sort()).toEqual(
			pipelines()
				.map((p) => String(p.name))
				.sort(),
		);
		const p = pipelines()[0];
		const stages = await searchPipelineStages.call(
			picker({ resource: 'deal', operation: 'create', pipelineId: rl(p.id) }, 'parameters.stageId'),
		);
		expect(stages.results.map((r) => r.value)).toEqual(
			(p.stages as IDataObject[]).map((s) => String(s.id)),
		);
		for (const s of stages.results) expect(s.name).not.toMatch(/^(\w+) \(\1\)$/i);
		const labels = await searchContactLabels.call(
			picker({ resource: 'contactLabel', operation: 'get' }, 'parameters.labelId'),
		);
		expect(labels.results.length).toBe(tenant().labels.size);
	});

	it('version 1: Deal → Create lists an empty first entry, so its empty default is a listed value', async () => {
		const list = await getPipelinesOrFirst.call(
			picker({ resource: 'deal', operation: 'create' }, 'parameters.pipelineId'),
		);
		expect(list[0]).toMatchObject({ name: 'First Pipeline', value: '' });
		const stages = await getPipelineStagesOrFirst.call(
			picker(
				{ resource: 'deal', operation: 'create', pipelineId: pipelines()[0].id },
				'parameters.stageId',
			),
		);
		expect(stages[0]).toMatchObject({ name: 'First Stage', value: '' });
		expect(stages.length).toBe((pipelines()[0].stages as IDataObject[]).length + 1);
	});
});

describe('Campaigns version 2', () => {
	it('Email Template → Create takes its category from a resource locator', async () => {
		const category = tenant().categories.values()[0];
		const r = await h.run(
			'businessPlatformCampaigns',
			{
				resource: 'emailTemplate',
				operation: 'create',
				name: 'With a picked category',
				categoryId: rl(category.id),
				templateJson: '{}',
				htmlSource: 'text',
				templateHtml: '<p>Hi</p>',
			},
			undefined,
			{ typeVersion: 2 },
		);
		expect(r.error).toBeUndefined();
		expect(
			tenant()
				.emailTemplates.values()
				.find((t) => t.name === 'With a picked category')?.category_id,
		).toBe(category.id);
	});
});

describe('the record column mapper', () => {
	it('a boolean column starts empty, not false (an untouched switch sends nothing)', () => {
		const table = tenant()
			.tables.values()
			.find((t) => t.objectType === 'CONTACT')!;
		const booleans = columnFields(table as never, true).filter((f) => f.type === 'boolean');
		expect(booleans.length).toBeGreaterThan(0);
		for (const f of booleans) expect(f.defaultValue).toBeNull();
	});
});
