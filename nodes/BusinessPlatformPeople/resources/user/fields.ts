/**
 * The user's fields, grouped as a person fills the platform's form: Identity, Dates,
 * Personal, Address, Payment Details, Compensation, Other; and the checks made on
 * them before a user is sent.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { BuiltRequest, Field, OpContext } from '../../../shared/engine/model';
import { bodyField, options, parseJson, toUtcIso } from '../../../shared/fields';

export const str = (
	displayName: string,
	name: string,
	description?: string,
	extra: Partial<INodeProperties> = {},
): INodeProperties => ({ displayName, name, type: 'string', default: '', description, ...extra });

/** A calendar date as ISO 8601 at midnight UTC: the date is kept as the user wrote it, whatever the time zone of n8n. */
export function toIsoDate(value: unknown, label: string, ctx: OpContext): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const text = value instanceof Date ? value.toISOString() : String(value).trim();
	const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
	const mdy = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
	if (iso || mdy) {
		const [y, m, d] = iso
			? [Number(iso[1]), Number(iso[2]), Number(iso[3])]
			: [Number(mdy![3]), Number(mdy![1]), Number(mdy![2])];
		const t = new Date(Date.UTC(y, m - 1, d));
		if (t.getUTCMonth() === m - 1 && t.getUTCDate() === d) return t.toISOString();
	}
	return toUtcIso(value, label, ctx);
}

const dateField = (displayName: string, name: string, description?: string): Field =>
	bodyField({ displayName, name, type: 'dateTime', default: '', description }, name, (v, ctx) =>
		toIsoDate(v, displayName, ctx),
	);

/** A JSON object or list, checked before sending; an empty object is left out. */
function jsonField(
	displayName: string,
	name: string,
	description: string,
	shape: 'object' | 'array',
): Field {
	const jsonDefault = shape === 'object' ? '{}' : '[]';
	return bodyField(
		{ displayName, name, type: 'json', default: jsonDefault, description },
		name,
		(v, ctx) => {
			const parsed = parseJson(v, displayName, ctx);
			if (parsed === undefined) return undefined;
			if (
				shape === 'array'
					? !Array.isArray(parsed)
					: parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)
			) {
				throw ctx.fail(
					`${displayName} must be a JSON ${shape}`,
					shape === 'array'
						? 'Write a list such as [{"key": "value"}].'
						: 'Write an object such as {"key": "value"}.',
				);
			}
			return (
				Array.isArray(parsed) ? parsed : Object.keys(parsed as object).length ? parsed : undefined
			) as IDataObject;
		},
	);
}

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
	bodyField(
		str('Email', 'emailId', 'Work email; unique in the account', { placeholder: 'name@email.com' }),
	),
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
		bodyField({
			displayName: 'Gender',
			name: 'gender',
			type: 'options',
			options: GENDERS,
			default: '',
		}),
		bodyField(str('Nationality', 'nationality', 'Country code, such as US')),
		bodyField(
			str(
				'Employee ID',
				'employeeId',
				'The company’s own ID of the person; unique in the account. Leave empty to let the platform number it.',
			),
		),
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

const compensationFields = (): Field[] => [
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
	},
];

const otherFields = (): Field[] => [
	bodyField(str('Status', 'status', 'Such as active or draft')),
	bodyField({
		displayName: 'Make Payroll',
		name: 'makePayroll',
		type: 'boolean',
		default: true,
		description: 'Whether the user is paid through payruns',
	}),
	bodyField({
		displayName: 'Invite User to Fill Info',
		name: 'inviteUserToFillInfo',
		type: 'boolean',
		default: false,
		description: 'Whether the platform asks the user to complete their profile',
	}),
	bodyField({
		displayName: 'Direct Deposit Consent',
		name: 'directDepositConsent',
		type: 'boolean',
		default: false,
		description: 'Whether the user agreed to be paid by direct deposit',
	}),
	bodyField(
		str(
			'Component Group ID',
			'componentGroup',
			'The component group whose pay components apply to the user',
		),
	),
	bodyField({
		displayName: 'Has Components',
		name: 'hasComponents',
		type: 'boolean',
		default: false,
		description: 'Whether the user has pay components',
	}),
	bodyField({
		displayName: 'Has Compliance',
		name: 'hasCompliance',
		type: 'boolean',
		default: false,
		description: 'Whether country-specific compliance data is set',
	}),
	bodyField(
		str(
			'Approver Emails',
			'approvers',
			'Comma-separated emails of users of the account who approve this user’s requests',
		),
		'approvers',
		(v) => {
			const emails = String(v ?? '')
				.split(/[\s,;]+/)
				.map((e) => e.trim())
				.filter(Boolean);
			return emails.length ? emails.map((emailId) => ({ emailId })) : undefined;
		},
	),
	jsonField(
		'Compliance (JSON)',
		'compliance',
		'Country-specific compliance object, with its "@type"',
		'object',
	),
	jsonField(
		'Custom Fields (JSON)',
		'customFields',
		'Custom field values keyed by field name',
		'object',
	),
	jsonField(
		'Custom Field Data (JSON)',
		'customFieldData',
		'List of {customFieldId, value: [text]} entries',
		'array',
	),
];

type WriteMode = 'create' | 'replace' | 'patch';

const GROUP_NOTES: Record<WriteMode, string | undefined> = {
	create: undefined,
	replace: 'The whole user is replaced: fields left out are cleared',
	patch: 'Only the fields you add change; the others keep their values',
};

/** The user's fields in groups. Each mode has its own properties, so every operation shows its user picker first. */
export function userGroups(mode: WriteMode): Field[] {
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

export const requiredName = (mode: WriteMode = 'create'): Field[] => [
	bodyField({
		...str(
			'First Name',
			'firstName',
			mode === 'replace' ? 'Required again: the whole user is replaced' : undefined,
		),
		required: true,
	}),
	bodyField(
		str(
			'Last Name',
			'lastName',
			mode === 'replace' ? 'Left empty, the last name is cleared' : undefined,
		),
	),
	bodyField(
		str(
			'Email',
			'emailId',
			mode === 'replace'
				? 'Work email; unique in the account. Left empty, the email is cleared.'
				: 'Work email; unique in the account',
			{ placeholder: 'name@email.com' },
		),
	),
];

export function checkUser(req: BuiltRequest, ctx: OpContext): void {
	if ('firstName' in req.body && !String(req.body.firstName).trim())
		throw ctx.fail('First Name is empty', 'A user needs a first name.');
	const email = req.body.emailId;
	if (email !== undefined && !/^[^@\s]+@[^@\s]+$/.test(String(email)))
		throw ctx.fail(
			`Email "${String(email)}" is not an email address`,
			'Give a full address such as name@example.com, or leave the field out.',
		);
}

/** Create and Update (PUT) send the whole user: a first name is required, and refused before sending when blank. */
export function checkWholeUser(req: BuiltRequest, ctx: OpContext): void {
	if (!String(req.body.firstName ?? '').trim())
		throw ctx.fail('First Name is empty', 'A user needs a first name.');
	checkUser(req, ctx);
}
