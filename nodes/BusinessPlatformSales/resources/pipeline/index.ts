/** Deal pipelines and their ordered stages — /v1/crm/deals/pipelines. */

import type { Resource } from '../../../shared/engine/model';
import { getPipelines, searchPipelines } from '../../methods/deals';
import { createPipeline } from './create';
import { deletePipeline } from './delete';
import { getPipeline } from './get';
import { getAllPipeline } from './getAll';
import { updatePipeline } from './update';

export const pipelineResource: Resource = {
	value: 'pipeline',
	name: 'Pipeline',
	description: 'Deal pipelines and their stages',
	operations: [createPipeline, getPipeline, getAllPipeline, updatePipeline, deletePipeline],
	methods: { listSearch: { searchPipelines }, loadOptions: { getPipelines } },
};
