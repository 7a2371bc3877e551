/**
 * Sales node → Pipeline and Stage, through n8n-core against the sandbox: every
 * operation's effect in the sandbox state, stage order, the stage list derived from
 * the pipeline with a local limit, and the pipeline and stage pickers.
 */
import type { IDataObject } from 'n8n-workflow';

import { pipelineResource } from '../../nodes/BusinessPlatformSales/resources/pipeline';
import type { OpContext } from '../../nodes/shared/engine/model';
import {
	getPipelines,
	getPipelineStages,
	searchDeals,
} from '../../nodes/BusinessPlatformSales/methods/deals';
import { pickerContext } from '../../testbed/harness/pickers';
import { createHarness, type Harness } from '../../testbed/harness/run';
import { expectDeleted } from '../helpers/outcomes';
import { useSandbox } from '../helpers/sandbox';

const ctx = useSandbox();
let h: Harness;
beforeAll(() => {
	h = createHarness(ctx.sb);
});

const tenant = () => ctx.sb.store.tenant(1);
const pipelineList = () => tenant().pipelines.values() as unknown as IDataObject[];
const run = (
	resource: 'pipeline' | 'stage',
	parameters: IDataObject,
	input?: IDataObject[],
	continueOnFail = false,
) =>
	h.run(
		'businessPlatformSales',
		{ resource, ...parameters },
		input?.map((json) => ({ json })),
		{ continueOnFail },
	);
const requestCount = () => ctx.sb.stats().requests as number;
const stagesOf = (id: number) =>
	(tenant().pipelines.get(id)!.stages as IDataObject[]).map((s) => ({
		id: s.id,
		name: s.name,
		order: s.order,
		status: s.won_lost_status,
	}));
const stage = (name: string, dealProbability = 0, rottingDays = 0, helpText = '') => ({
	name,
	dealProbability,
	rottingDays,
	helpText,
});

async function seedPipeline(name: string, stageNames: string[]): Promise<number> {
	const r = await run('pipeline', {
		operation: 'create',
		name,
		stages: { stage: stageNames.map((n) => stage(n)) },
	});
	expect(r.error).toBeUndefined();
	return r.json[0].id as number;
}

describe('Pipeline operations', () => {
	it('Create: the pipeline exists with its stages in the given order (Won and Lost added after); the output is read back', async () => {
		const r = await run('pipeline', {
			operation: 'create',
			name: 'Enterprise',
			stages: {
				stage: [
					stage('Discovery', 10, 7, 'First call done'),
					stage('Demo', 40, 14),
					stage('Contract', 90, 30),
				],
			},
		});
		expect(r.error).toBeUndefined();
		const id = r.json[0].id as number;
		expect(r.json[0]).toMatchObject({ id, name: 'Enterprise' });
		expect(tenant().pipelines.get(id)).toMatchObject({ name: 'Enterprise' });
		expect(stagesOf(id).map((s) => [s.name, s.order, s.status])).toEqual([
			['Discovery', 1, 'open'],
			['Demo', 2, 'open'],
			['Contract', 3, 'open'],
			['Won', 4, 'won'],
			['Lost', 5, 'lost'],
		]);
		expect((tenant().pipelines.get(id)!.stages as IDataObject[])[0]).toMatchObject({
			deal_probability: 10,
			rotting_days: 7,
			help_text: 'First call done',
		});
		const post = ctx.sb
			.requests()
			.filter((q) => q.method === 'POST' && q.path === '/v1/crm/deals/pipelines')
			.pop()!;
		expect(JSON.parse(post.body!).stages.map((s: IDataObject) => s.order)).toEqual([1, 2, 3]);
	});

	it('Get: one pipeline with its stages; Simplify counts the deals per stage instead of embedding them', async () => {
		const p = pipelineList()[0];
		const raw = await run('pipeline', { operation: 'get', pipelineId: p.id, simplify: false });
		expect(raw.error).toBeUndefined();
		expect(raw.json[0]).toMatchObject({ id: p.id, name: p.name });
		expect(Array.isArray((raw.json[0].stages as IDataObject[])[0].deals)).toBe(true);
		const simple = await run('pipeline', { operation: 'get', pipelineId: p.id });
		const dealsInPipeline = tenant()
			.deals.values()
			.filter((d) => d.pipeline_id === p.id).length;
		const stages = simple.json[0].stages as IDataObject[];
		expect(stages.map((s) => s.id)).toEqual((p.stages as IDataObject[]).map((s) => s.id));
		expect(stages.reduce((n, s) => n + Number(s.deals ?? 0), 0)).toBe(dealsInPipeline);
	});

	it('Get Many: every pipeline, or up to the limit', async () => {
		const all = await run('pipeline', { operation: 'getAll', returnAll: true });
		expect(all.error).toBeUndefined();
		expect(all.json.map((p) => p.id).sort()).toEqual(
			tenant()
				.pipelines.values()
				.map((p) => p.id)
				.sort(),
		);
		const one = await run('pipeline', { operation: 'getAll', limit: 1, simplify: false });
		expect(one.json).toHaveLength(1);
	});

	it('Update (PUT): renames, keeps a stage by ID, adds one and removes one; the output is read back', async () => {
		const id = await seedPipeline('Old name', ['A', 'B', 'C']);
		const [a, , c] = stagesOf(id);
		const r = await run('pipeline', {
			operation: 'update',
			pipelineId: id,
			updateFields: {
				name: 'New name',
				stages: {
					stage: [
						{ id: String(c.id), ...stage('C renamed', 70) },
						{ id: '', ...stage('New') },
						{ id: String(a.id), ...stage('A') },
					],
				},
			},
		});
		expect(r.error).toBeUndefined();
		expect(r.json[0]).toMatchObject({ id, name: 'New name' });
		expect(tenant().pipelines.get(id)!.name).toBe('New name');
		const after = stagesOf(id);
		expect(after.map((s) => [s.name, s.order, s.status])).toEqual([
			['C renamed', 1, 'open'],
			['New', 2, 'open'],
			['A', 3, 'open'],
			['Won', 4, 'won'],
			['Lost', 5, 'lost'],
		]);
		expect(after[0].id).toBe(c.id);
		expect(after[2].id).toBe(a.id);
		// A name-only update leaves the stages alone.
		const rename = await run('pipeline', {
			operation: 'update',
			pipelineId: id,
			updateFields: { name: 'Final' },
		});
		expect(rename.error).toBeUndefined();
		expect(stagesOf(id)).toEqual(after);
		expect(tenant().pipelines.get(id)!.name).toBe('Final');
	});

	it('Delete: the pipeline is gone; the output says so', async () => {
		const id = await seedPipeline('Short-lived', ['Only']);
		expectDeleted(
			await run('pipeline', { operation: 'delete', pipelineId: id }),
			id,
			tenant().pipelines,
		);
	});

	it('accepts the create answer in either spelling: { Id, Success } and { id, success }', async () => {
		const create = pipelineResource.operations.find((o) => o.value === 'create')!;
		const reads: string[] = [];
		// The platform's create answer is given by `send`; the read-back goes through `request`.
		const fake = (answer: IDataObject) =>
			({
				fromFields: () => ({
					method: 'POST' as const,
					path: '/v1/crm/deals/pipelines',
					qs: {},
					body: { name: 'Read back' },
				}),
				send: async () => await Promise.resolve(answer),
				request: async (req: { path: string }) => {
					reads.push(req.path);
					return await Promise.resolve({ id: 77, name: 'Read back' });
				},
				fail: (message: string) => new Error(message),
			}) as unknown as OpContext;
		const runCreate = async (ctx: OpContext) => await create.execute!(ctx, ctx.fromFields());
		expect(await runCreate(fake({ Id: 77, Success: true }))).toEqual({
			id: 77,
			name: 'Read back',
		});
		expect(await runCreate(fake({ id: 77, success: true }))).toEqual({
			id: 77,
			name: 'Read back',
		});
		expect(reads).toEqual(['/v1/crm/deals/pipelines/77', '/v1/crm/deals/pipelines/77']);
		await expect(runCreate(fake({ Id: 77, Success: false }))).rejects.toThrow(/did not confirm/);
	});
});

describe('Pipeline: bad input', () => {
	it('a stage without a name, a probability over 100 and an empty update fail before any request, naming the item', async () => {
		const id = pipelineList()[0].id;
		const before = requestCount();
		const nameless = await run('pipeline', {
			operation: 'create',
			name: 'X',
			stages: { stage: [stage('Fine'), stage(' ')] },
		});
		expect(nameless.error?.message).toBe('Stages: stage 2 has no name');
		expect(nameless.error?.context?.itemIndex).toBe(0);
		const probability = await run('pipeline', {
			operation: 'create',
			name: 'X',
			stages: { stage: [{ ...stage('P'), dealProbability: '={{ 150 }}' }] },
		});
		expect(probability.error?.message).toBe(
			'Stages: the deal probability of "P" must be a whole number from 0 to 100',
		);
		const empty = await run(
			'pipeline',
			{ operation: 'update', pipelineId: id, updateFields: {} },
			[{ a: 1 }, { a: 2 }],
			true,
		);
		expect(empty.json).toEqual([
			expect.objectContaining({ error: 'Nothing to update', itemIndex: 0 }),
			expect.objectContaining({ error: 'Nothing to update', itemIndex: 1 }),
		]);
		const badId = await run('pipeline', { operation: 'delete', pipelineId: '={{ $json.id }}' }, [
			{ id: 'seven' },
		]);
		expect(badId.error?.message).toBe('Pipeline must be a whole number, got "seven"');
		expect(requestCount()).toBe(before);
	});
});

describe('Stage operations', () => {
	it('Get Many: the pipeline’s stages in order, one item each; Limit applies locally to one request', async () => {
		const id = await seedPipeline('Staged', ['S1', 'S2', 'S3']);
		const all = await run('stage', {
			operation: 'getAll',
			pipelineId: id,
			returnAll: true,
			simplify: false,
		});
		expect(all.error).toBeUndefined();
		expect(all.json.map((s) => s.id)).toEqual(stagesOf(id).map((s) => s.id));
		expect(all.json.map((s) => s.name)).toEqual(['S1', 'S2', 'S3', 'Won', 'Lost']);
		expect(all.json[0]).toMatchObject({ pipeline_id: id, order: 1 });

		ctx.sb.resetStats();
		const two = await run('stage', { operation: 'getAll', pipelineId: id, limit: 2 });
		expect(two.json).toEqual([
			expect.objectContaining({ name: 'S1', pipelineId: id, order: 1 }),
			expect.objectContaining({ name: 'S2', order: 2 }),
		]);
		expect(ctx.sb.stats().requests).toBe(1);
	});

	it('Delete: the stage is gone from its pipeline; the output says so', async () => {
		const id = await seedPipeline('Trim', ['Keep', 'Drop']);
		const drop = stagesOf(id).find((s) => s.name === 'Drop')!;
		const r = await run('stage', { operation: 'delete', pipelineId: id, stageId: drop.id });
		expect(r.error).toBeUndefined();
		expect(r.json).toEqual([{ deleted: true, id: drop.id }]);
		expect(stagesOf(id).map((s) => s.name)).toEqual(['Keep', 'Won', 'Lost']);
	});

	it('continue on fail: deleting a system stage fails on its item; the good one is deleted', async () => {
		const id = await seedPipeline('Mixed', ['One', 'Two']);
		const [one, , won] = stagesOf(id);
		const r = await run(
			'stage',
			{ operation: 'delete', stageId: '={{ $json.id }}' },
			[{ id: won.id }, { id: one.id }],
			true,
		);
		expect(r.json[0]).toMatchObject({ itemIndex: 0 });
		expect(String(r.json[0].error)).toMatch(/400/);
		expect(r.json[1]).toEqual({ deleted: true, id: one.id });
		expect(stagesOf(id).map((s) => s.name)).toEqual(['Two', 'Won', 'Lost']);
	});
});

describe('pickers', () => {
	const picker = (parameters: IDataObject, path = 'parameters.stageId') =>
		pickerContext(h, 'businessPlatformSales', parameters, path);

	it('pipelines, and the stages of the chosen pipeline (plain, inside Update Fields, or none chosen)', async () => {
		const [p1, p2] = pipelineList();
		const pipelines = await getPipelines.call(picker({ resource: 'deal', operation: 'create' }));
		expect(pipelines.map((o) => o.value).sort()).toEqual(
			tenant()
				.pipelines.values()
				.map((p) => p.id)
				.sort(),
		);

		const plain = await getPipelineStages.call(
			picker({ resource: 'deal', operation: 'create', pipelineId: p2.id }),
		);
		expect(plain.map((o) => o.value)).toEqual((p2.stages as IDataObject[]).map((s) => s.id));

		const nested = await getPipelineStages.call(
			picker(
				{ resource: 'deal', operation: 'update', updateFields: { pipelineId: p1.id } },
				'parameters.updateFields.stageId',
			),
		);
		expect(nested.map((o) => o.value)).toEqual((p1.stages as IDataObject[]).map((s) => s.id));

		const locatorValue = await getPipelineStages.call(
			picker({
				resource: 'stage',
				operation: 'delete',
				pipelineId: { __rl: true, mode: 'id', value: String(p1.id) },
			}),
		);
		expect(locatorValue.map((o) => o.value)).toEqual((p1.stages as IDataObject[]).map((s) => s.id));

		const none = await getPipelineStages.call(picker({ resource: 'stage', operation: 'delete' }));
		const every = tenant()
			.pipelines.values()
			.flatMap((p) => (p.stages as IDataObject[]).map((s) => s.id));
		expect(none.map((o) => o.value).sort()).toEqual(every.sort());
		expect(none[0].name).toContain(' / ');
	});

	it('deals: a page of the list, and a search by name', async () => {
		const first = await searchDeals.call(
			picker({ resource: 'deal', operation: 'get' }, 'parameters.dealId'),
		);
		expect(first.results.length).toBeGreaterThan(0);
		const target = tenant().deals.values()[3];
		const found = await searchDeals.call(
			picker({ resource: 'deal', operation: 'get' }, 'parameters.dealId'),
			String(target.name),
		);
		expect(found.results.map((r) => r.value)).toContain(String(target.id));
		for (const r of found.results)
			expect(r.name.toLowerCase()).toContain(String(target.name).toLowerCase());
	});
});
