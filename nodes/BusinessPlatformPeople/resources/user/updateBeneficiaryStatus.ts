/** User → Update Beneficiary Status: PUT /v1/people/users/beneficiary-status. Set the payment-provider beneficiary status of one or more users. */

import type { IDataObject } from 'n8n-workflow';

import type { OpContext, Operation } from '../../../shared/engine/model';
import { compact } from '../../../shared/field-values';
import { str } from './common';

/** The status to set (the platform's “operation”) and the users it is set for, each with an ID; at least one. */
function beneficiaryStatus(ctx: OpContext): { operation: string; list: IDataObject[] } {
	const operation = String(ctx.param('beneficiaryStatus', '')).trim();
	if (!operation)
		throw ctx.fail('Status is empty', 'Give the beneficiary status to set, such as ACTIVE.');
	const list = (
		(ctx.param<IDataObject>('beneficiaries', {}).user as IDataObject[] | undefined) ?? []
	).map((u, i) => {
		const userId = String(u.userId ?? '').trim();
		if (!userId)
			throw ctx.fail(`User ${i + 1} has no ID`, 'Choose the user from the list, or give their ID.');
		return compact({
			userId,
			reason: String(u.reason ?? ''),
			beneId: String(u.beneId ?? '').trim(),
		});
	});
	if (!list.length) throw ctx.fail('Users is empty', 'Add at least one user whose status changes.');
	return { operation, list };
}

export const updateBeneficiaryStatusUser: Operation = {
	value: 'updateBeneficiaryStatus',
	name: 'Update Beneficiary Status',
	action: 'Set beneficiary status of users',
	description: 'Set the payment-provider beneficiary status of one or more users',
	method: 'PUT',
	path: '/v1/people/users/beneficiary-status',
	regional: true,
	fields: [
		{
			property: {
				...str(
					'Status',
					'beneficiaryStatus',
					'The new beneficiary status (the platform’s “operation”), such as ACTIVE or REJECTED',
					{ placeholder: 'e.g. ACTIVE' },
				),
				required: true,
			},
		},
		{
			property: {
				displayName: 'Users',
				name: 'beneficiaries',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				placeholder: 'Add User',
				default: {},
				required: true,
				options: [
					{
						displayName: 'User',
						name: 'user',
						values: [
							{
								displayName: 'User Name or ID',
								name: 'userId',
								type: 'options',
								typeOptions: { loadOptionsMethod: 'getPeopleUsers' },
								default: '',
								description:
									'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
							},
							{
								displayName: 'Reason',
								name: 'reason',
								type: 'string',
								default: '',
								description: 'Why the status changes',
							},
							{
								displayName: 'Beneficiary ID',
								name: 'beneId',
								type: 'string',
								default: '',
								description: 'The user’s ID at the payment provider, when known',
							},
						],
					},
				],
			},
		},
	],
	why: 'The status and users are nested in the platform’s beneficiaryStatusInfo list; the answer gives only a status, so the output is one item per user with their new status.',
	// The status and the users checked once, and sent as checked.
	check: (req, ctx) => {
		const { operation, list } = beneficiaryStatus(ctx);
		req.body.beneficiaryStatusInfo = [{ beneficiaryDetails: list, operation }];
	},
	execute: async (ctx, req) => {
		const [{ beneficiaryDetails: list, operation }] = req.body.beneficiaryStatusInfo as Array<{
			beneficiaryDetails: IDataObject[];
			operation: string;
		}>;
		const answer = await ctx.send<IDataObject | undefined>(req);
		const status = answer?.status;
		return list.map((d) =>
			compact({
				userId: d.userId,
				beneficiaryStatus: operation,
				beneficiaryReason: d.reason,
				beneficiaryId: d.beneId,
				status: status as string,
			}),
		);
	},
};
