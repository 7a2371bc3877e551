/** Stage: what its operations share. */

import type { IDataObject } from 'n8n-workflow';

import { compact } from '../../../shared/fields';

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
