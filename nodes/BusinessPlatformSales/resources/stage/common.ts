/** Stage: what its operations share. */

import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { fromVersion, inVersion1 } from '../../../shared/engine/versions';
import { locator } from '../../../shared/engine/fields';
import { compact } from '../../../shared/field-values';

/** The pipeline whose stages an operation shows: version 1's dropdown, version 2's resource locator. */
export const pipelineProperties = (description: string, required = true): INodeProperties[] => [
	inVersion1({
		displayName: 'Pipeline Name or ID',
		name: 'pipelineId',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getPipelines' },
		default: '',
		required,
		description: `${description}. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
	}),
	fromVersion(
		2,
		locator({
			name: 'pipelineId',
			displayName: 'Pipeline',
			search: 'searchPipelines',
			description,
			required,
		}),
	),
];

/** Version 2's stage: a resource locator that lists the stages of the chosen pipeline. */
export const stageLocator = (description: string): INodeProperties =>
	fromVersion(2, {
		...locator({
			name: 'stageId',
			displayName: 'Stage',
			search: 'searchPipelineStages',
			description,
			required: true,
		}),
		typeOptions: { loadOptionsDependsOn: ['pipelineId.value'] },
	});

export function simplifyStage(s: IDataObject): IDataObject {
	return compact({
		id: s.id,
		name: s.name,
		order: s.order,
		pipelineId: s.pipeline_id,
		dealProbability: s.deal_probability,
		rottingDays: s.rotting_days,
		helpText: s.help_text,
		status: s.won_lost_status,
		systemGenerated: s.system_generated,
		deals: Array.isArray(s.deals) ? s.deals.length : undefined,
	});
}
