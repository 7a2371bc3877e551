/** The resources of the Campaigns node: one folder each, one file per operation. */
import type { Resource } from '../../shared/engine/model';
import { categoryResource } from './category';
import { emailTemplateResource } from './emailTemplate';
import { formResource } from './form';

export const CAMPAIGNS_RESOURCES: Resource[] = [
	formResource,
	categoryResource,
	emailTemplateResource,
];
