/**
 * Pipeline stages. The platform has no stage list: Get Many reads the pipeline and
 * outputs its stages; Delete is DELETE /v1/crm/deals/pipelines/stages/{id}.
 */

import type { Resource } from '../../../shared/engine/model';
import {
	getPipelines,
	getPipelineStages,
	searchPipelines,
	searchPipelineStages,
} from '../../methods/deals';
import { deleteStage } from './delete';
import { getAllStage } from './getAll';

export const stageResource: Resource = {
	value: 'stage',
	name: 'Stage',
	description: 'Stages of deal pipelines',
	operations: [getAllStage, deleteStage],
	methods: {
		listSearch: { searchPipelines, searchPipelineStages },
		loadOptions: { getPipelines, getPipelineStages },
	},
};
