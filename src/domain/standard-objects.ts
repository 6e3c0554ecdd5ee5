import type { NewObjectType } from './store/port.ts';

/** The stages of a deal, in pipeline order. */
export const DEAL_STAGES = ['lead', 'qualified', 'proposal', 'negotiation', 'won', 'lost'] as const;

/**
 * The object types every new workspace starts with (companies, contacts, deals). Their slugs and field types are
 * fixed; workspaces may add fields to them.
 */
export const STANDARD_OBJECT_TYPES: readonly NewObjectType[] = Object.freeze([
  {
    slug: 'companies',
    name: 'Companies',
    icon: 'building',
    color: '#2563eb',
    description: 'Organisations you work with.',
    standard: true,
    fields: [
      { slug: 'name', name: 'Name', type: 'text', required: true },
      { slug: 'domain', name: 'Domain', type: 'url', unique: true },
      {
        slug: 'industry', name: 'Industry', type: 'select',
        config: { options: ['software', 'financial_services', 'healthcare', 'manufacturing', 'retail', 'education', 'media', 'other'] },
      },
      { slug: 'employee_count', name: 'Employee count', type: 'number' },
      { slug: 'description', name: 'Description', type: 'text' },
    ],
  },
  {
    slug: 'contacts',
    name: 'Contacts',
    icon: 'user',
    color: '#16a34a',
    description: 'People you work with.',
    standard: true,
    fields: [
      { slug: 'name', name: 'Name', type: 'text', required: true },
      { slug: 'email', name: 'Email', type: 'email', unique: true },
      { slug: 'phone', name: 'Phone', type: 'phone' },
      { slug: 'job_title', name: 'Job title', type: 'text' },
      { slug: 'company', name: 'Company', type: 'record_reference', config: { target: 'companies', many: false } },
    ],
  },
  {
    slug: 'deals',
    name: 'Deals',
    icon: 'handshake',
    color: '#f59e0b',
    description: 'Opportunities moving through the sales pipeline.',
    standard: true,
    fields: [
      { slug: 'name', name: 'Name', type: 'text', required: true },
      { slug: 'amount', name: 'Amount', type: 'currency', config: { currency_code: 'USD' } },
      { slug: 'stage', name: 'Stage', type: 'status', config: { options: [...DEAL_STAGES] } },
      { slug: 'close_date', name: 'Close date', type: 'date' },
      { slug: 'company', name: 'Company', type: 'record_reference', config: { target: 'companies', many: false } },
      { slug: 'contacts', name: 'Contacts', type: 'record_reference', config: { target: 'contacts', many: true } },
      { slug: 'owner', name: 'Owner', type: 'user' },
    ],
  },
]);
