/** User → Search: POST /v1/people/users/filtered-users. Find users whose fields match all the given conditions. */

import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../../shared/engine/model';
import { options } from '../../../shared/engine/fields';
import { compact } from '../../../shared/field-values';
import { listOptions, simplifyUser, USERS_WHY, userListExtras, usersOf } from './common';

// --------------------------------------------------------- operations ----

const OPERATORS = options([
	['Contains', 'c'],
	['Does Not Contain', 'nc'],
	['Ends With', 'ew'],
	['Equals', 'eq'],
	['Greater Than', 'gt'],
	['Greater Than or Equal', 'gte'],
	['In (Comma-Separated)', 'in'],
	['Less Than', 'lt'],
	['Less Than or Equal', 'lte'],
	['Not Equals', 'neq'],
	['Not In (Comma-Separated)', 'nin'],
	['Starts With', 'sw'],
]);

const COLUMNS = options([
	['City', 'address.city'],
	['Compensation', 'compensation'],
	['Country', 'address.country'],
	['Country Code', 'countryCode'],
	['Custom Field', 'customFieldData'],
	['Date of Joining', 'dateOfJoining'],
	['Department', 'department'],
	['Designation', 'designation'],
	['Email', 'emailId'],
	['Employee ID', 'employeeId'],
	['Employment Type', 'employeeType'],
	['First Name', 'firstName'],
	['Gender', 'gender'],
	['Last Name', 'lastName'],
	['Name', 'name'],
	['Payment Method', 'paymentDetails.paymentMethod'],
	['State', 'address.state'],
	['Status', 'status'],
	['User Type', 'type'],
]);

export const searchUser: Operation = {
	value: 'search',
	name: 'Search',
	action: 'Search users by conditions',
	description: 'Find users whose fields match all the given conditions',
	method: 'POST',
	path: '/v1/people/users/filtered-users',
	// Only reads: safe to repeat after a 5xx or a dropped connection.
	idempotent: true,
	regional: true,
	paginate: 'peopleUsers',
	simplify: simplifyUser,
	fields: [
		{
			property: {
				displayName: 'Conditions',
				name: 'conditions',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				placeholder: 'Add Condition',
				default: {},
				required: true,
				description: 'Users must match every condition',
				options: [
					{
						displayName: 'Condition',
						name: 'condition',
						values: [
							{
								displayName: 'Column',
								name: 'colId',
								type: 'options',
								options: COLUMNS,
								default: 'name',
								description: 'The user field to test',
							},
							{
								displayName: 'Custom Field ID',
								name: 'key',
								type: 'string',
								default: '',
								description: 'For the Custom Field column: the ID of the custom field',
								displayOptions: { show: { colId: ['customFieldData'] } },
							},
							{
								displayName: 'Operator',
								name: 'opr',
								type: 'options',
								options: OPERATORS,
								default: 'c',
							},
							{ displayName: 'Value', name: 'value', type: 'string', default: '' },
						],
					},
				],
			},
			send: {
				in: 'body',
				key: 'conditions',
				keepEmpty: true,
				map: (v, ctx) => {
					const list =
						((v as IDataObject | undefined)?.condition as IDataObject[] | undefined) ?? [];
					if (!list.length)
						throw ctx.fail(
							'Conditions is empty',
							'Add at least one condition, or use Get Many to list every user.',
						);
					return list.map((c, i) => {
						const colId = String(c.colId ?? '').trim();
						if (!colId)
							throw ctx.fail(
								`Condition ${i + 1} has no column`,
								'Choose the field the condition tests.',
							);
						return compact({
							colId,
							opr: String(c.opr ?? 'eq'),
							value: String(c.value ?? ''),
							key: colId === 'customFieldData' ? String(c.key ?? '').trim() : '',
						});
					});
				},
			},
		},
		listOptions(userListExtras()),
	],
	why: USERS_WHY,
	execute: usersOf,
};
