/**
 * People users — /v1/people/users… (regional). Ids are strings; int64 fields
 * come back as numbers. The user's fields are grouped as a person fills the
 * platform's form: Identity, Dates, Personal, Address, Payment Details,
 * Compensation, Other.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { bodyField, compact, locator, options, parseJson, queryField, toStringIds, toUtcIso } from '../../shared/fields';
import type { BuiltRequest, Field, OpContext, Operation, Resource } from '../../shared/engine/model';
import { getPeopleUsers, searchPeopleUsers } from '../methods/users';
import { bulkDeleteOutput, int64List, int64ToNumbers, sortOrderProperty } from './common';

// ------------------------------------------------------------ helpers ----

export const userLocator = (name = 'userId', displayName = 'User', description = 'The user (employee) to use'): INodeProperties =>
	locator({ name, displayName, search: 'searchPeopleUsers', description, numeric: false, placeholder: 'e.g. 65f1c0ffee0123456789abcd' });

/** A string id from a locator or a typed value. */
export function toStringId(value: unknown, label: string, ctx: OpContext): string {
	const id = String(value ?? '').trim();
	if (!id) throw ctx.fail(`${label} is empty`, 'Pick it from the list, or give its ID.');
	return id;
}

const userIdField = (key: string, sendIn: 'body' | 'query' | 'path' = 'body'): Field => ({
	property: userLocator(),
	send: { in: sendIn, key, map: (v, ctx) => toStringId(v, 'User', ctx) },
});

const str = (displayName: string, name: string, description?: string, extra: Partial<INodeProperties> = {}): INodeProperties => ({ displayName, name, type: 'string', default: '', description, ...extra });

/** A calendar date as ISO 8601 at midnight UTC: the date is kept as the user wrote it, whatever the time zone of n8n. */
function toIsoDate(value: unknown, label: string, ctx: OpContext): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const text = value instanceof Date ? value.toISOString() : String(value).trim();
	const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
	const mdy = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
	if (iso || mdy) {
		const [y, m, d] = iso ? [Number(iso[1]), Number(iso[2]), Number(iso[3])] : [Number(mdy![3]), Number(mdy![1]), Number(mdy![2])];
		const t = new Date(Date.UTC(y, m - 1, d));
		if (t.getUTCMonth() === m - 1 && t.getUTCDate() === d) return t.toISOString();
	}
	return toUtcIso(value, label, ctx);
}

const dateField = (displayName: string, name: string, description?: string): Field =>
	bodyField({ displayName, name, type: 'dateTime', default: '', description }, name, (v, ctx) => toIsoDate(v, displayName, ctx));

const jsonField = (displayName: string, name: string, description: string, shape: 'object' | 'array'): Field =>
	// eslint-disable-next-line n8n-nodes-base/node-param-default-missing -- the default depends on the shape
	bodyField({ displayName, name, type: 'json', default: shape === 'object' ? '{}' : '[]', description }, name, (v, ctx) => {
		const parsed = parseJson(v, displayName, ctx);
		if (parsed === undefined) return undefined;
		if (shape === 'array' ? !Array.isArray(parsed) : parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
			throw ctx.fail(`${displayName} must be a JSON ${shape}`, shape === 'array' ? 'Write a list such as [{"key": "value"}].' : 'Write an object such as {"key": "value"}.');
		}
		return (Array.isArray(parsed) ? parsed : Object.keys(parsed as object).length ? parsed : undefined) as IDataObject;
	});

const group = (displayName: string, name: string, children: Field[], placeholder = 'Add Field', description?: string): Field => ({
	property: { displayName, name, type: 'collection', placeholder, default: {}, options: [], ...(description ? { description } : {}) },
	children,
});

// ------------------------------------------------------- user fields ----

const GENDERS = options([
	['Female', 'female'],
	['Male', 'male'],
	['Non-Binary', 'nonBinary'],
	['Not Given', ''],
]);

const nameFields = (): Field[] => [
	bodyField(str('First Name', 'firstName')),
	bodyField(str('Last Name', 'lastName')),
	bodyField(str('Email', 'emailId', 'Work email; unique in the account', { placeholder: 'name@email.com' })),
];

function identityFields(withNames: boolean): Field[] {
	return [
		...(withNames ? nameFields() : []),
		bodyField(str('Middle Name', 'middleName')),
		bodyField(str('Full Name', 'name', 'Leave empty to use first, middle and last name')),
		bodyField(str('Display Name', 'displayName')),
		bodyField(str('Alias Name', 'aliasName')),
		bodyField(str('Title', 'title', 'Form of address, such as Ms or Dr')),
		bodyField(str('Designation', 'designation', 'Job title, such as Software Engineer')),
		bodyField(str('Department', 'department')),
		bodyField(str('Phone', 'contact', 'Phone number with country prefix, such as +15551234567')),
		bodyField({ displayName: 'Gender', name: 'gender', type: 'options', options: GENDERS, default: '' }),
		bodyField(str('Nationality', 'nationality', 'Country code, such as US')),
		bodyField(str('Employee ID', 'employeeId', 'The company’s own ID of the person; unique in the account. Leave empty to let the platform number it.')),
		bodyField({
			displayName: 'Employment Type',
			name: 'employeeType',
			type: 'options',
			options: options([
				['Full Time', 'fullTime'],
				['Part Time', 'partTime'],
				['Contractor', 'contractor'],
			]),
			default: 'fullTime',
		}),
		bodyField({
			displayName: 'User Type',
			name: 'type',
			type: 'options',
			options: options([
				['Employee', 'EMPLOYEE'],
				['Contractor', 'CONTRACTOR'],
			]),
			default: 'EMPLOYEE',
		}),
		bodyField(str('Contractor Type', 'contractorType', 'For contractors: individual or business')),
		bodyField(str('Organization Name', 'organizationName')),
		bodyField(str('Country Code', 'countryCode', 'Country of employment, such as US or IN')),
		bodyField(str('Username', 'username')),
		bodyField(str('Document Sequence ID', 'documentSequenceId')),
	];
}

const datesFields = (): Field[] => [
	dateField('Date of Joining', 'dateOfJoining'),
	dateField('Date of Confirmation', 'dateOfConfirmation', 'End of the probation period'),
	dateField('Date of Termination', 'dateOfTermination'),
	dateField('Date of Birth', 'dateOfBirth'),
];

const personalFields = (): Field[] => [
	bodyField({
		displayName: 'Marital Status',
		name: 'maritalStatus',
		type: 'options',
		options: options([
			['Single', 'single'],
			['Married', 'married'],
			['Divorced', 'divorced'],
			['Widowed', 'widowed'],
		]),
		default: 'single',
	}),
	bodyField(str('Passport Number', 'passportNumber')),
	bodyField(str('Passport Country', 'passportCountry', 'Country code, such as US')),
	bodyField(str('Social Security Number', 'socialSecurityNumber')),
	bodyField(str('Employer Identification Number', 'employerIdentificationNumber')),
];

const addressFields = (): Field[] =>
	[
		['Address Line 1', 'addressLine1'],
		['Address Line 2', 'addressLine2'],
		['City', 'city'],
		['State', 'state'],
		['ZIP Code', 'zipCode'],
		['Country', 'country'],
		['County', 'county'],
		['Suburb', 'suburb'],
	].map(([displayName, name]) => bodyField(str(displayName, name), `address.${name}`));

const paymentFields = (): Field[] => [
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
	].map(([displayName, name, description]) => bodyField(str(displayName!, name!, description), `paymentDetails.${name!}`)),
];

const PERIODS = options([
	['Yearly', 'yearly'],
	['Monthly', 'monthly'],
	['Weekly', 'weekly'],
	['Hourly', 'hourly'],
]);

const compensationFields = (): Field[] => [
	bodyField({ displayName: 'Compensation', name: 'compensation', type: 'number', typeOptions: { minValue: 0 }, default: 0, description: 'Pay per compensation period' }),
	bodyField({ displayName: 'Compensation Period', name: 'compensationPeriod', type: 'options', options: PERIODS, default: 'yearly' }),
	bodyField(str('Compensation Currency', 'compensationCurrency', 'Currency code, such as USD')),
	bodyField({ displayName: 'Cost to Company', name: 'ctc', type: 'number', typeOptions: { minValue: 0 }, default: 0, description: 'Yearly cost to the company (CTC)' }),
	bodyField({ displayName: 'Effective Salary', name: 'isEffectiveSalary', type: 'boolean', default: false, description: 'Whether the salary follows the dated compensations below' }),
	{
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
						{ displayName: 'Basic Compensation', name: 'basicCompensation', type: 'number', default: 0, description: 'The basic part of the compensation' },
						{ displayName: 'Compensation', name: 'compensation', type: 'number', default: 0 },
						{ displayName: 'Effective Date', name: 'effectiveDate', type: 'dateTime', default: '' },
						{ displayName: 'Period', name: 'period', type: 'options', options: PERIODS, default: 'yearly' },
						{ displayName: 'Visible', name: 'isVisible', type: 'boolean', default: true, description: 'Whether the employee sees this compensation' },
					],
				},
			],
		},
		send: {
			in: 'body',
			key: 'effectiveCompensations',
			map: (v, ctx) => {
				const list = ((v as IDataObject | undefined)?.compensation as IDataObject[] | undefined) ?? [];
				return list.length
					? list.map((c) => ({ effectiveDate: toIsoDate(c.effectiveDate, 'Effective Date', ctx), compensation: Number(c.compensation ?? 0), basicCompensation: Number(c.basicCompensation ?? 0), period: c.period, isVisible: c.isVisible !== false }))
					: undefined;
			},
		},
	},
];

const otherFields = (): Field[] => [
	bodyField(str('Status', 'status', 'Such as active or draft')),
	bodyField({ displayName: 'Make Payroll', name: 'makePayroll', type: 'boolean', default: true, description: 'Whether the user is paid through payruns' }),
	bodyField({ displayName: 'Invite User to Fill Info', name: 'inviteUserToFillInfo', type: 'boolean', default: false, description: 'Whether the platform asks the user to complete their profile' }),
	bodyField({ displayName: 'Direct Deposit Consent', name: 'directDepositConsent', type: 'boolean', default: false, description: 'Whether the user agreed to be paid by direct deposit' }),
	bodyField(str('Component Group ID', 'componentGroup', 'The component group whose pay components apply to the user')),
	bodyField({ displayName: 'Has Components', name: 'hasComponents', type: 'boolean', default: false, description: 'Whether the user has pay components' }),
	bodyField({ displayName: 'Has Compliance', name: 'hasCompliance', type: 'boolean', default: false, description: 'Whether country-specific compliance data is set' }),
	bodyField(str('Approver Emails', 'approvers', 'Comma-separated emails of users of the account who approve this user’s requests'), 'approvers', (v) => {
		const emails = String(v ?? '')
			.split(/[\s,;]+/)
			.map((e) => e.trim())
			.filter(Boolean);
		return emails.length ? emails.map((emailId) => ({ emailId })) : undefined;
	}),
	jsonField('Compliance (JSON)', 'compliance', 'Country-specific compliance object, with its "@type"', 'object'),
	jsonField('Custom Fields (JSON)', 'customFields', 'Custom field values keyed by field name', 'object'),
	jsonField('Custom Field Data (JSON)', 'customFieldData', 'List of {customFieldId, value: [text]} entries', 'array'),
];

type WriteMode = 'create' | 'replace' | 'patch';

const GROUP_NOTES: Record<WriteMode, string | undefined> = {
	create: undefined,
	replace: 'The whole user is replaced: fields left out are cleared',
	patch: 'Only the fields you add change; the others keep their values',
};

/** The user's fields in groups. Each mode has its own properties, so every operation shows its user picker first. */
function userGroups(mode: WriteMode): Field[] {
	const note = GROUP_NOTES[mode];
	return [
		group('Identity', 'identity', identityFields(mode === 'patch'), 'Add Field', note),
		group('Dates', 'dates', datesFields(), 'Add Date', note),
		group('Personal', 'personal', personalFields(), 'Add Field', note),
		group('Address', 'address', addressFields(), 'Add Address Field', note),
		group('Payment Details', 'paymentDetails', paymentFields(), 'Add Payment Field', note),
		group('Compensation', 'compensation', compensationFields(), 'Add Compensation Field', note),
		group('Other Fields', 'otherFields', otherFields(), 'Add Field', note),
	];
}

const requiredName = (mode: WriteMode = 'create'): Field[] => [
	bodyField({ ...str('First Name', 'firstName', mode === 'replace' ? 'Required again: the whole user is replaced' : undefined), required: true }),
	bodyField(str('Last Name', 'lastName', mode === 'replace' ? 'Left empty, the last name is cleared' : undefined)),
	bodyField(str('Email', 'emailId', mode === 'replace' ? 'Work email; unique in the account. Left empty, the email is cleared.' : 'Work email; unique in the account', { placeholder: 'name@email.com' })),
];

function checkUser(req: BuiltRequest, ctx: OpContext): void {
	if ('firstName' in req.body && !String(req.body.firstName).trim()) throw ctx.fail('First Name is empty', 'A user needs a first name.');
	const email = req.body.emailId;
	if (email !== undefined && !/^[^@\s]+@[^@\s]+$/.test(String(email))) throw ctx.fail(`Email "${String(email)}" is not an email address`, 'Give a full address such as name@example.com, or leave the field out.');
}

/** Create and Update (PUT) send the whole user: a first name is required, and refused before sending when blank. */
function checkWholeUser(req: BuiltRequest, ctx: OpContext): void {
	if (!String(req.body.firstName ?? '').trim()) throw ctx.fail('First Name is empty', 'A user needs a first name.');
	checkUser(req, ctx);
}

/** v1GetUserResponse → the user (int64 as numbers). A 200 that carries errors and no user fails the item. */
function userOutput(answer: unknown, ctx: OpContext): IDataObject {
	const a = int64ToNumbers((answer ?? {}) as IDataObject);
	if (a.user && typeof a.user === 'object') return a.user as IDataObject;
	const errors = Array.isArray(a.errors) ? (a.errors as IDataObject[]) : [];
	const error = a.error as IDataObject | null | undefined;
	if (errors.length || error) {
		const text = [...errors.map((e) => String(e.message ?? e.error ?? JSON.stringify(e))), error ? String(error.message ?? JSON.stringify(error)) : ''].filter(Boolean).join('; ');
		throw ctx.fail(`The platform did not save the user: ${text}`, 'Check the fields named in the message.');
	}
	return a;
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

const bool = (displayName: string, name: string, description: string): Field => queryField({ displayName, name, type: 'boolean', default: true, description });

/** The shared pagination parameters of people lists (besides limit and currentPage, which the paging sets). */
export function listOptions(extra: Field[] = []): Field {
	return group(
		'Options',
		'options',
		[
			queryField(str('Search', 'searchString', 'Text found in the name, email, employee ID, designation or department (or in the search field)')),
			queryField(str('Search Field', 'searchField', 'Look for the search text only in this field, such as emailId')),
			...extra,
			queryField(str('Sort By', 'sortField', 'Field to sort by, such as createdAt, name or _id'), 'orderBy.field'),
			queryField(sortOrderProperty('desc'), 'orderBy.order'),
			queryField(str('User IDs', 'userIds', 'Comma-separated user IDs to restrict the list to'), 'userIds', (v, ctx) => (v === '' || v === undefined ? undefined : toStringIds(v, 'User IDs', ctx))),
		],
		'Add Option',
	);
}

const userListExtras = (): Field[] => [
	queryField(str('User Type', 'userType', 'Only users of this type, such as EMPLOYEE, CONTRACTOR or fullTime')),
	queryField(str('Account Type', 'accountType', 'Only users whose bank account is of this type, such as checking')),
	queryField(str('Stage', 'stage')),
	queryField(str('CPF Account', 'cpfAccount')),
	queryField({ displayName: 'Joined From', name: 'fromDate', type: 'dateTime', default: '', description: 'Only users who joined on or after this date' }, 'fromDate', (v, ctx) => toIsoDate(v, 'Joined From', ctx)),
	queryField({ displayName: 'Joined To', name: 'toDate', type: 'dateTime', default: '', description: 'Only users who joined on or before this date' }, 'toDate', (v, ctx) => toIsoDate(v, 'Joined To', ctx)),
	bool('Include Drafts', 'includeDraft', 'Whether to include users whose status is draft'),
	bool('Incomplete Profiles', 'isInCompleteProfile', 'Whether to return only users with an incomplete profile (on) or only complete ones (off)'),
	bool('Only Team Members', 'onlyTeamMembers', 'Whether to return only members of the connected user’s teams'),
	bool('Custom Field Filter', 'isCustomFieldFilter', 'Whether the search applies to custom fields'),
	bool('Get Components', 'getComponents', 'Whether to include the users’ pay components'),
	bool('Get Benefits', 'getBenefits', 'Whether to include the users’ benefits'),
	bool('Leave Out Roles', 'ignRoles', 'Whether to leave the users’ roles out of the answer'),
	bool('Leave Out Teams', 'ignTeamData', 'Whether to leave the users’ teams out of the answer'),
	bool('Leave Out Team Members', 'ignTeamMembers', 'Whether to leave the members of the users’ teams out of the answer'),
	bool('Leave Out Approvers', 'ignUserApprovers', 'Whether to leave the users’ approvers out of the answer'),
];

const usersOutput = (answer: unknown) => int64ToNumbers(((answer as IDataObject[] | undefined) ?? []) as IDataObject[]);

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

const ops: Operation[] = [
	{
		value: 'create',
		name: 'Create',
		action: 'Create a user',
		description: 'Add an employee or contractor',
		method: 'POST',
		path: '/v1/people/users',
		regional: true,
		fields: [...requiredName(), ...userGroups('create')],
		prepare: checkWholeUser,
		output: userOutput,
	},
	{
		value: 'update',
		name: 'Update',
		action: 'Update a user',
		description: 'Replace the whole user (PUT): fields you leave out are cleared',
		method: 'PUT',
		path: '/v1/people/users',
		regional: true,
		fields: [userIdField('userId'), ...requiredName('replace'), ...userGroups('replace')],
		prepare: checkWholeUser,
		output: userOutput,
	},
	{
		value: 'updateFields',
		name: 'Update Fields',
		action: 'Update fields of a user',
		description: 'Change the given fields of a user; the others keep their values (PATCH)',
		method: 'PATCH',
		path: '/v1/people/users',
		regional: true,
		fields: [userIdField('userId'), ...userGroups('patch')],
		prepare: (req, ctx) => {
			if (Object.keys(req.body).filter((k) => k !== 'userId').length === 0) throw ctx.fail('Nothing to update', 'Add at least one field in one of the groups (Identity, Dates, Address, …).');
			checkUser(req, ctx);
		},
		output: userOutput,
	},
	{
		value: 'delete',
		name: 'Delete',
		action: 'Delete users',
		description: 'Delete one or more users',
		method: 'POST',
		path: '/v1/people/users/delete/bulk',
		regional: true,
		fields: [
			bodyField(
				{
					displayName: 'User Names or IDs',
					name: 'userIds',
					type: 'multiOptions',
					typeOptions: { loadOptionsMethod: 'getPeopleUsers' },
					default: [],
					required: true,
					description: 'Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
					hint: 'The users to delete; an expression may give a list or comma-separated text',
				},
				'ids',
				(v, ctx) => toStringIds(v, 'Users', ctx),
			),
			bodyField({ displayName: 'Force Delete', name: 'forcedDelete', type: 'boolean', default: false, description: 'Whether to delete users even when they are employees of a payrun' }),
		],
		output: (answer, ctx, req) => bulkDeleteOutput(answer, req.body.ids as string[], ctx, 'users'),
	},
	{
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
								{ displayName: 'Column', name: 'colId', type: 'options', options: COLUMNS, default: 'name', description: 'The user field to test' },
								{ displayName: 'Custom Field ID', name: 'key', type: 'string', default: '', description: 'For the Custom Field column: the ID of the custom field', displayOptions: { show: { colId: ['customFieldData'] } } },
								{ displayName: 'Operator', name: 'opr', type: 'options', options: OPERATORS, default: 'c' },
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
						const list = ((v as IDataObject | undefined)?.condition as IDataObject[] | undefined) ?? [];
						if (!list.length) throw ctx.fail('Conditions is empty', 'Add at least one condition, or use Get Many to list every user.');
						return list.map((c, i) => {
							const colId = String(c.colId ?? '').trim();
							if (!colId) throw ctx.fail(`Condition ${i + 1} has no column`, 'Choose the field the condition tests.');
							return compact({ colId, opr: String(c.opr ?? 'eq'), value: String(c.value ?? ''), key: colId === 'customFieldData' ? String(c.key ?? '').trim() : '' });
						});
					},
				},
			},
			listOptions(userListExtras()),
		],
		output: usersOutput,
	},
	{
		value: 'getAll',
		name: 'Get Many',
		action: 'Get many users',
		description: 'List users, with the platform’s filters',
		method: 'GET',
		path: '/v1/people/users',
		regional: true,
		paginate: 'peopleUsers',
		simplify: simplifyUser,
		fields: [listOptions(userListExtras())],
		output: usersOutput,
	},
	{
		value: 'getApprovers',
		name: 'Get Approvers',
		action: 'Get the approvers of a user',
		description: 'List the users who approve a user’s requests',
		method: 'GET',
		path: '/v1/people/users/approvers/list',
		regional: true,
		simplify: simplifyUser,
		fields: [
			userIdField('id', 'query'),
			group(
				'Options',
				'approverOptions',
				[
					bool('Get Compliance', 'getCompliance', 'Whether to include compliance data'),
					bool('Get Components', 'getComponents', 'Whether to include pay components'),
					bool('Get Benefits', 'getBenefits', 'Whether to include benefits'),
					bool('Get Roles and Teams', 'getRolesAndTeams', 'Whether to include roles and teams'),
					queryField(str('Custom Field Module', 'customFieldModule', 'Module whose custom fields to include, such as people')),
				],
				'Add Option',
			),
		],
		output: (answer) => int64ToNumbers((((answer ?? {}) as IDataObject).users as IDataObject[] | undefined) ?? []),
	},
	{
		value: 'getDesignations',
		name: 'Get Designations',
		action: 'Get the designations in use',
		description: 'List the distinct designations (job titles) of the account',
		method: 'GET',
		path: '/v1/people/users/designations',
		regional: true,
		output: (answer) => ((((answer ?? {}) as IDataObject).designations as string[] | undefined) ?? []).map((designation) => ({ designation })),
	},
	{
		value: 'updateBeneficiaryStatus',
		name: 'Update Beneficiary Status',
		action: 'Update the beneficiary status of users',
		description: 'Set the payment-provider beneficiary status of one or more users',
		method: 'PUT',
		path: '/v1/people/users/beneficiary-status',
		regional: true,
		fields: [
			{ property: { ...str('Status', 'beneficiaryStatus', 'The new beneficiary status (the platform’s “operation”), such as ACTIVE or REJECTED', { placeholder: 'e.g. ACTIVE' }), required: true } },
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
									description: 'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
								},
								{ displayName: 'Reason', name: 'reason', type: 'string', default: '', description: 'Why the status changes' },
								{ displayName: 'Beneficiary ID', name: 'beneId', type: 'string', default: '', description: 'The user’s ID at the payment provider, when known' },
							],
						},
					],
				},
			},
		],
		prepare: (req, ctx) => {
			const operation = String(ctx.param('beneficiaryStatus', '')).trim();
			if (!operation) throw ctx.fail('Status is empty', 'Give the beneficiary status to set, such as ACTIVE.');
			const list = ((ctx.param<IDataObject>('beneficiaries', {}).user as IDataObject[] | undefined) ?? []).map((u, i) => {
				const userId = String(u.userId ?? '').trim();
				if (!userId) throw ctx.fail(`User ${i + 1} has no ID`, 'Choose the user from the list, or give their ID.');
				return compact({ userId, reason: String(u.reason ?? ''), beneId: String(u.beneId ?? '').trim() });
			});
			if (!list.length) throw ctx.fail('Users is empty', 'Add at least one user whose status changes.');
			req.body.beneficiaryStatusInfo = [{ beneficiaryDetails: list, operation }];
		},
		output: (answer, _ctx, req) => {
			const info = (req.body.beneficiaryStatusInfo as IDataObject[])[0];
			const status = ((answer ?? {}) as IDataObject).status;
			return (info.beneficiaryDetails as IDataObject[]).map((d) =>
				compact({ userId: d.userId, beneficiaryStatus: info.operation, beneficiaryReason: d.reason, beneficiaryId: d.beneId, status: status as string }),
			);
		},
	},
	{
		value: 'syncBeneficiaries',
		name: 'Sync Beneficiaries',
		action: 'Sync users to the payment provider',
		description: 'Start adding users who are not yet beneficiaries to the payment provider',
		method: 'POST',
		path: '/v1/people/users/sync-beneficiaries',
		regional: true,
		output: (answer) => ({ ...((answer ?? {}) as IDataObject) }),
	},
	{
		value: 'getTaxDeclarations',
		name: 'Get Tax Declarations',
		action: 'Get tax declarations',
		description: 'List the tax declarations employees submitted',
		method: 'GET',
		path: '/v1/people/users/in/tax-declaration-info/list',
		regional: true,
		paginate: 'taxDeclarations',
		fields: [listOptions([queryField(str('Stage', 'stage', 'Only declarations in this stage, such as SUBMITTED, APPROVED or REJECTED (all when empty)'))])],
		output: (answer) => int64List(answer),
	},
];

export const userResource: Resource = {
	value: 'user',
	name: 'User',
	description: 'Employees and contractors',
	operations: ops,
	methods: { listSearch: { searchPeopleUsers }, loadOptions: { getPeopleUsers } },
};
