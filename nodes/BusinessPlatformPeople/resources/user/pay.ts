/**
 * User: the groups of the user's fields that say how the user is paid, Payment Details
 * and Compensation (the other groups are in fields.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import type { Field } from '../../../shared/engine/model';
import { bodyField, options } from '../../../shared/engine/fields';
import { str, toIsoDate } from './common';

/** Payment Details: how the user is paid, and their bank account. */
export const paymentFields = (): Field[] => [
	bodyField(
		{
			displayName: 'Payment Method',
			name: 'paymentMethod',
			type: 'options',
			options: options([
				['Direct Deposit', 'directDeposit'],
				['Check', 'check'],
				['Cash', 'cash'],
			]),
			default: 'directDeposit',
		},
		'paymentDetails.paymentMethod',
	),
	...[
		['Bank', 'bank', 'Name of the bank'],
		['Bank ID', 'bankId', undefined],
		['Account Type', 'accountType', 'Such as checking or savings'],
		['Account Number', 'accountNumber', undefined],
		['Routing Number', 'routingNumber', 'US bank routing number'],
		['Branch Code', 'branchCode', undefined],
		['Branch Name', 'branchName', undefined],
		['IFSC', 'ifsc', 'Indian Financial System Code of the branch'],
		['UPI ID', 'upi', 'Unified Payments Interface address'],
		['Transit Number', 'transitNumber', 'Canadian branch transit number'],
		['Institution Number', 'institutionNumber', 'Canadian bank institution number'],
	].map(([displayName, name, description]) =>
		bodyField(str(displayName!, name!, description), `paymentDetails.${name!}`),
	),
];

const PERIODS = options([
	['Yearly', 'yearly'],
	['Monthly', 'monthly'],
	['Weekly', 'weekly'],
	['Hourly', 'hourly'],
]);

/** Compensation: what the user is paid, per period, and from when. */
export const compensationFields = (): Field[] => [
	bodyField({
		displayName: 'Compensation',
		name: 'compensation',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 0,
		description: 'Pay per compensation period',
	}),
	bodyField({
		displayName: 'Compensation Period',
		name: 'compensationPeriod',
		type: 'options',
		options: PERIODS,
		default: 'yearly',
	}),
	bodyField(str('Compensation Currency', 'compensationCurrency', 'Currency code, such as USD')),
	bodyField({
		displayName: 'Cost to Company',
		name: 'ctc',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 0,
		description: 'Yearly cost to the company (CTC)',
	}),
	bodyField({
		displayName: 'Effective Salary',
		name: 'isEffectiveSalary',
		type: 'boolean',
		default: false,
		description: 'Whether the salary follows the dated compensations below',
	}),
	effectiveCompensationsField(),
];

/** Effective Compensations: dated compensations, each with its period and whether the employee sees it. */
function effectiveCompensationsField(): Field {
	return {
		property: {
			displayName: 'Effective Compensations',
			name: 'effectiveCompensations',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add Compensation',
			default: {},
			options: [
				{
					displayName: 'Compensation',
					name: 'compensation',
					values: [
						{
							displayName: 'Basic Compensation',
							name: 'basicCompensation',
							type: 'number',
							default: 0,
							description: 'The basic part of the compensation',
						},
						{ displayName: 'Compensation', name: 'compensation', type: 'number', default: 0 },
						{ displayName: 'Effective Date', name: 'effectiveDate', type: 'dateTime', default: '' },
						{
							displayName: 'Period',
							name: 'period',
							type: 'options',
							options: PERIODS,
							default: 'yearly',
						},
						{
							displayName: 'Visible',
							name: 'isVisible',
							type: 'boolean',
							default: true,
							description: 'Whether the employee sees this compensation',
						},
					],
				},
			],
		},
		send: {
			in: 'body',
			key: 'effectiveCompensations',
			map: (v, ctx) => {
				const list =
					((v as IDataObject | undefined)?.compensation as IDataObject[] | undefined) ?? [];
				return list.length
					? list.map((c) => ({
							effectiveDate: toIsoDate(c.effectiveDate, 'Effective Date', ctx),
							compensation: Number(c.compensation ?? 0),
							basicCompensation: Number(c.basicCompensation ?? 0),
							period: c.period,
							isVisible: c.isVisible !== false,
						}))
					: undefined;
			},
		},
	};
}
