/** Stage → Delete: DELETE /v1/crm/deals/pipelines/stages/{id}. Delete a stage that holds no deals (the Won and Lost stages cannot be deleted). */

import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../../../shared/engine/model';
import { deleteByPath } from '../../../shared/engine/output';
import { inVersion1 } from '../../../shared/engine/versions';
import { idPath } from '../../../shared/engine/fields';
import { pipelineProperties, stageLocator } from './common';

// The same Return All and Limit as every paged list (applied here, to the pipeline's stages).

const stageIdProperty: INodeProperties = {
	displayName: 'Stage Name or ID',
	name: 'stageId',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getPipelineStages', loadOptionsDependsOn: ['pipelineId'] },
	default: '',
	required: true,
	description:
		'The stage to delete. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

export const deleteStage: Operation = {
	value: 'delete',
	name: 'Delete',
	action: 'Delete a stage',
	description: 'Delete a stage that holds no deals (the Won and Lost stages cannot be deleted)',
	method: 'DELETE',
	path: '/v1/crm/deals/pipelines/stages/{id}',
	fields: [
		// Only narrows the Stage list; not sent.
		...pipelineProperties('The pipeline whose stages the Stage list shows (not sent)', false).map(
			(property) => ({ property }),
		),
		...[inVersion1(stageIdProperty), stageLocator('The stage to delete')].map((property) =>
			idPath(property, 'Stage'),
		),
	],
	...deleteByPath,
};
