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
	why: 'The answer is one item as the platform gives it, and an empty answer stays an empty item rather than the default {"success": true}.',
	execute: async (ctx) => {
		const answer = await ctx.send<IDataObject | undefined>(ctx.fromFields());
		return { ...(answer ?? {}) };
	},
};
