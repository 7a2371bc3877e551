/** The resources of the People node: one folder each, one file per operation (common.ts: what they share). */
import type { Resource } from '../../shared/engine/model';
import { componentGroupResource } from './componentGroup';
import { payrunResource } from './payrun';
import { paystubResource } from './paystub';
import { userResource } from './user';

export const PEOPLE_RESOURCES: Resource[] = [
	userResource,
	payrunResource,
	paystubResource,
	componentGroupResource,
];
