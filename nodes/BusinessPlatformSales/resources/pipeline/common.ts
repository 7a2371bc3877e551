/** Pipeline: what its operations share. */

import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { Field, OpContext } from '../../../shared/engine/model';
import { fromVersion, inVersion1 } from '../../../shared/engine/versions';
import { idPath, locator } from '../../../shared/engine/fields';
import { compact, toIntegerId } from '../../../shared/field-values';
import { echo } from '../../../shared/text-readers';

export const pipelineIdProperty = (description = 'The pipeline to use'): INodeProperties => ({
	displayName: 'Pipeline Name or ID',
	name: 'pipelineId',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getPipelines' },
	default: '',
	required: true,
	description: `${description}. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
});

/** Version 2: a resource locator (loads when opened, once n8n has set the node's credential; see README, "Pickers"). */
export const pipelineLocator = (
	description = 'The pipeline to use',
	required = true,
): INodeProperties =>
	fromVersion(
		2,
		locator({
			name: 'pipelineId',
			displayName: 'Pipeline',
			search: 'searchPipelines',
			description,
			required,
		}),
	);

/** The pipeline of Get, Update and Delete: version 1's dropdown, version 2's resource locator. */
export const idFields: Field[] = [inVersion1(pipelineIdProperty()), pipelineLocator()].map(
	(property) => idPath(property, 'Pipeline'),
);

const stageValues = (withId: boolean): INodeProperties[] => [
	...(withId
		? [
				{
					displayName: 'Stage ID',
					name: 'id',
					type: 'string',
					default: '',
					description: 'ID of an existing stage to keep and change. Empty: a new stage.',
				} as INodeProperties,
			]
		: []),
	{ displayName: 'Name', name: 'name', type: 'string', default: '', required: true },
	{
		displayName: 'Deal Probability (%)',
		name: 'dealProbability',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 100 },
		default: 0,
		description: 'Chance that a deal in this stage is won',
	},
	{
		displayName: 'Rotting Days',
		name: 'rottingDays',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 0,
		description: 'Days after which a deal idle in this stage is flagged (0: never)',
	},
	{ displayName: 'Help Text', name: 'helpText', type: 'string', default: '' },
];

export const stagesProperty = (withId: boolean, description: string): INodeProperties => ({
	displayName: 'Stages',
	name: 'stages',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true, sortable: true },
	placeholder: 'Add Stage',
	default: {},
	description,
	options: [{ displayName: 'Stage', name: 'stage', values: stageValues(withId) }],
});

/** The fixed collection's stages in their order: order = position, starting at 1. */
export function stagesBody(v: unknown, ctx: OpContext): IDataObject[] | undefined {
	const list = ((v as IDataObject | undefined)?.stage as IDataObject[] | undefined) ?? [];
	if (!list.length) return undefined;
	return list.map((s, i) => {
		const name = String(s.name ?? '').trim();
		if (!name) throw ctx.fail(`Stages: stage ${i + 1} has no name`, 'Give every stage a name.');
		const probability = Number(s.dealProbability ?? 0);
		if (!Number.isInteger(probability) || probability < 0 || probability > 100)
			throw ctx.fail(
				`Stages: the deal probability of ${echo(name, 60)} must be a whole number from 0 to 100`,
			);
		const rotting = Number(s.rottingDays ?? 0);
		if (!Number.isInteger(rotting) || rotting < 0)
			throw ctx.fail(
				`Stages: the rotting days of ${echo(name, 60)} must be a whole number, 0 or more`,
			);
		const id = String(s.id ?? '').trim();
		return compact({
			id: id ? toIntegerId(id, `Stages: the ID of ${echo(name, 60)}`, ctx) : undefined,
			order: i + 1,
			name,
			deal_probability: probability,
			rotting_days: rotting,
			help_text: String(s.helpText ?? ''),
		});
	});
}

export function simplifyPipeline(p: IDataObject): IDataObject {
	const stages = (p.stages as IDataObject[] | undefined) ?? [];
	return compact({
		id: p.id,
		name: p.name,
		stages: stages.map((s) =>
			compact({
				id: s.id,
				name: s.name,
				order: s.order,
				dealProbability: s.deal_probability,
				rottingDays: s.rotting_days,
				status: s.won_lost_status,
				deals: Array.isArray(s.deals) ? s.deals.length : undefined,
			}),
		),
		createdAt: p.created_at,
		updatedAt: p.updated_at,
	}) as IDataObject;
}

/** Create and update answer CUDRecordResponse, written { Id, Success } in the spec's sample: either spelling. */
export function confirmedId(answer: unknown, ctx: OpContext, fallback?: number): number {
	const a = (answer ?? {}) as IDataObject;
	const success = a.Success ?? a.success;
	if (success === false)
		throw ctx.fail(
			'The platform did not confirm the change (Success: false)',
			'Check the pipeline in the platform.',
		);
	const id = a.Id ?? a.id ?? fallback;
	return toIntegerId(id, 'The pipeline ID in the answer', ctx);
}

export const readBack = async (ctx: OpContext, id: number) =>
	await ctx.request<IDataObject>({ method: 'GET', path: `/v1/crm/deals/pipelines/${id}` });
