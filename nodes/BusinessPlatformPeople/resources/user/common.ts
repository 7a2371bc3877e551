/** User: the field builders its operations share, the user picker field, list options and the shapes of user answers. */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { Field, OpContext } from '../../../shared/engine/model';
import { queryField } from '../../../shared/engine/fields';
import { compact, toCalendarDate, toStringId, toStringIds } from '../../../shared/field-values';
import { isoDate } from '../../../shared/text-readers';
import { int64ToNumbers, sortOrderProperty, userLocator } from '../common';

/** A text field, empty by default. */
export const str = (
	displayName: string,
	name: string,
	description?: string,
	extra: Partial<INodeProperties> = {},
): INodeProperties => ({ displayName, name, type: 'string', default: '', description, ...extra });

/** A calendar date as ISO 8601 at midnight UTC: the date is kept as the user wrote it, whatever the time zone of n8n. */
export function toIsoDate(value: unknown, label: string, ctx: OpContext): string | undefined {
	const date = toCalendarDate(value, label, ctx, true);
	return date && `${isoDate(date)}T00:00:00.000Z`;
}

/** A collection whose options are `children`, each added with its `placeholder` button. */
export const group = (
	displayName: string,
	name: string,
	children: Field[],
	placeholder = 'Add Field',
	description?: string,
): Field => ({
	property: {
		displayName,
		name,
		type: 'collection',
		placeholder,
		default: {},
		options: [],
		...(description ? { description } : {}),
	},
	children,
});

export const userIdField = (key: string, sendIn: 'body' | 'query' | 'path' = 'body'): Field => ({
	property: userLocator(),
	send: { in: sendIn, key, map: (v, ctx) => toStringId(v, 'User', ctx) },
});

/** v1GetUserResponse → the user (int64 as numbers). A 200 that carries errors and no user fails the item. */
export function userOutput(answer: unknown, ctx: OpContext): IDataObject {
	const a = int64ToNumbers((answer ?? {}) as IDataObject);
	if (a.user && typeof a.user === 'object') return a.user as IDataObject;
	const errors = Array.isArray(a.errors) ? (a.errors as IDataObject[]) : [];
	const error = a.error as IDataObject | null | undefined;
	if (errors.length || error) {
		const text = [
			...errors.map((e) => String(e.message ?? e.error ?? JSON.stringify(e))),
			error ? String(error.message ?? JSON.stringify(error)) : '',
		]
			.filter(Boolean)
			.join('; ');
		throw ctx.fail(
			`The platform did not save the user: ${text}`,
			'Check the fields named in the message.',
		);
	}
	return a;
}

/** Create, Update and Update Fields: the item's request (checked by the operation's `check`), the answer through `userOutput`. */
export async function saveUser(ctx: OpContext): Promise<IDataObject> {
	return userOutput(await ctx.send(ctx.fromFields()), ctx);
}

export function simplifyUser(u: IDataObject): IDataObject {
	return compact({
		userId: u.userId,
		name: u.name || [u.firstName, u.lastName].filter(Boolean).join(' '),
		emailId: u.emailId,
		employeeId: u.employeeId,
		designation: u.designation,
		department: u.department,
		type: u.type,
		status: u.status,
		dateOfJoining: u.dateOfJoining,
		iamUserId: u.iamUserId,
	});
}

// ---------------------------------------------------- list parameters ----
export const bool = (displayName: string, name: string, description: string): Field =>
	queryField({ displayName, name, type: 'boolean', default: true, description });

/** The shared pagination parameters of people lists (besides limit and currentPage, which the paging sets). */
export function listOptions(extra: Field[] = []): Field {
	return group(
		'Options',
		'options',
		[
			queryField(
				str(
					'Search',
					'searchString',
					'Text found in the name, email, employee ID, designation or department (or in the search field)',
				),
			),
			queryField(
				str(
					'Search Field',
					'searchField',
					'Look for the search text only in this field, such as emailId',
				),
			),
			...extra,
			queryField(
				str('Sort By', 'sortField', 'Field to sort by, such as createdAt, name or _id'),
				'orderBy.field',
			),
			queryField(sortOrderProperty('desc'), 'orderBy.order'),
			queryField(
				str('User IDs', 'userIds', 'Comma-separated user IDs to restrict the list to'),
				'userIds',
				(v, ctx) => (v === '' || v === undefined ? undefined : toStringIds(v, 'User IDs', ctx)),
			),
		],
		'Add option',
	);
}

export const userListExtras = (): Field[] => [
	queryField(
		str(
			'User Type',
			'userType',
			'Only users of this type, such as EMPLOYEE, CONTRACTOR or fullTime',
		),
	),
	queryField(
		str(
			'Account Type',
			'accountType',
			'Only users whose bank account is of this type, such as checking',
		),
	),
	queryField(str('Stage', 'stage')),
	queryField(str('CPF Account', 'cpfAccount')),
	queryField(
		{
			displayName: 'Joined From',
			name: 'fromDate',
			type: 'dateTime',
			default: '',
			description: 'Only users who joined on or after this date',
		},
		'fromDate',
		(v, ctx) => toIsoDate(v, 'Joined From', ctx),
	),
	queryField(
		{
			displayName: 'Joined To',
			name: 'toDate',
			type: 'dateTime',
			default: '',
			description: 'Only users who joined on or before this date',
		},
		'toDate',
		(v, ctx) => toIsoDate(v, 'Joined To', ctx),
	),
	bool('Include Drafts', 'includeDraft', 'Whether to include users whose status is draft'),
	bool(
		'Incomplete Profiles',
		'isInCompleteProfile',
		'Whether to return only users with an incomplete profile (on) or only complete ones (off)',
	),
	bool(
		'Only Team Members',
		'onlyTeamMembers',
		'Whether to return only members of the connected user’s teams',
	),
	bool('Custom Field Filter', 'isCustomFieldFilter', 'Whether the search applies to custom fields'),
	bool('Get Components', 'getComponents', 'Whether to include the users’ pay components'),
	bool('Get Benefits', 'getBenefits', 'Whether to include the users’ benefits'),
	bool('Leave Out Roles', 'ignRoles', 'Whether to leave the users’ roles out of the answer'),
	bool('Leave Out Teams', 'ignTeamData', 'Whether to leave the users’ teams out of the answer'),
	bool(
		'Leave Out Team Members',
		'ignTeamMembers',
		'Whether to leave the members of the users’ teams out of the answer',
	),
	bool(
		'Leave Out Approvers',
		'ignUserApprovers',
		'Whether to leave the users’ approvers out of the answer',
	),
];

export const usersOutput = (answer: unknown) =>
	int64ToNumbers(((answer as IDataObject[] | undefined) ?? []) as IDataObject[]);

/** Get Many and Search: the pages of users, their int64 numbers (such as iamUserId) as numbers. */
export async function usersOf(ctx: OpContext): Promise<IDataObject[]> {
	return usersOutput(await ctx.send<IDataObject[]>(ctx.fromFields()));
}

export const USERS_WHY =
	'The platform writes int64 numbers (such as iamUserId) as text: the users’ are turned back into numbers.';
