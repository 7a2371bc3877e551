/** User → Sync Beneficiaries: POST /v1/people/users/sync-beneficiaries. Start adding users who are not yet beneficiaries to the payment provider. */

import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../../shared/engine/model';

export const syncBeneficiariesUser: Operation = {
	value: 'syncBeneficiaries',
	name: 'Sync Beneficiaries',
	action: 'Sync users to the payment provider',
	description: 'Start adding users who are not yet beneficiaries to the payment provider',
	method: 'POST',
	path: '/v1/people/users/sync-beneficiaries',
	regional: true,
	output: (answer) => ({ ...((answer ?? {}) as IDataObject) }),
};
