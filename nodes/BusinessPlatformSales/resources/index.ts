/** The resources of the Sales node: one folder each, one file per operation. */
import type { Resource } from '../../shared/engine/model';
import { activityResource } from './activity';
import { contactResource } from './contact';
import { contactLabelResource } from './contactLabel';
import { dealResource } from './deal';
import { pipelineResource } from './pipeline';
import { recordResource } from './record';
import { stageResource } from './stage';
import { tableResource } from './table';

export const SALES_RESOURCES: Resource[] = [
	activityResource,
	contactResource,
	contactLabelResource,
	dealResource,
	pipelineResource,
	recordResource,
	stageResource,
	tableResource,
];
