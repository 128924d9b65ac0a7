// Examples in the published description: what a request may look like and what the service
// answers, for the calls an integrator makes first. They are the local runtime's real answers
// with ids and times made readable, and test/unit/openapi-routes.test.ts checks each one against
// the schema it illustrates, so an example cannot drift from what the service takes or gives.

/**
 * A bundle in three steps (`in_order`): a manager approves, then two signers (one by email, one by
 * text message) sign as one step, each their own field, then an agent is sent a link to read it.
 */
export const bundleRequest = {
  label: 'Lease 4B',
  email_subject: 'Please sign your lease',
  custom_key: 'lease-4b',
  in_order: true,
  packets: [
    {
      key: 'manager',
      name: 'Mia Ortiz',
      email: 'mia@example.com',
      role: 'approver',
      order: 1,
    },
    {
      key: 'tenant',
      name: 'Ann Lee',
      email: 'ann@example.com',
      order: 2,
    },
    {
      key: 'landlord',
      name: 'Bo Chen',
      phone: '+1 555 010 3000',
      deliver_via: 'phone',
      order: 2,
    },
    {
      key: 'agent',
      name: 'Raj Patel',
      email: 'raj@example.com',
      role: 'viewer',
      order: 3,
    },
  ],
  documents: [
    {
      key: 'lease',
      file_url: 'https://example.com/lease.pdf',
      fields: [
        {
          key: 'tenant_sig',
          kind: 'sig',
          page: 1,
          x: 10,
          y: 70,
          w: 30,
          h: 5,
          editors: ['tenant'],
        },
        {
          key: 'landlord_sig',
          kind: 'sig',
          page: 1,
          x: 55,
          y: 70,
          w: 30,
          h: 5,
          editors: ['landlord'],
        },
        // Filled from `data` by its label; the tenant sees it and cannot change it.
        {
          key: 'rent',
          kind: 'inp',
          label: 'Monthly rent',
          read_only: true,
          v_pattern: 'numbers',
          page: 1,
          x: 10,
          y: 50,
          w: 20,
          h: 4,
        },
        // A calculated field: the service computes it from `rent` and stamps its own result.
        {
          key: 'deposit',
          kind: 'inp',
          label: 'Deposit',
          formula: 'round(rent × 2, 2)',
          format: 'currency:USD',
          page: 1,
          x: 10,
          y: 56,
          w: 20,
          h: 4,
        },
        // Conditional fields: the pets' names show (and are required) only once the box is ticked.
        {
          key: 'has_pets',
          kind: 'chk',
          label: 'I have pets',
          page: 1,
          x: 10,
          y: 50,
          w: 3,
          h: 3,
          editors: ['tenant'],
        },
        {
          key: 'pet_names',
          kind: 'inp',
          label: 'Their names',
          page: 1,
          x: 20,
          y: 50,
          w: 40,
          h: 4,
          editors: ['tenant'],
          visible_when: { all: [{ field: 'has_pets', equals: 'true' }] },
          required_when: { all: [{ field: 'has_pets', equals: 'true' }] },
        },
      ],
    },
  ],
  data: { 'Monthly rent': '1450.00' },
};

/** A bundle from an envelope template, its fields filled by key or label. */
export const envelopeBundleRequest = {
  envelope_template: { template_id: '3f2c9a7e-1b4d-4e8f-9a6b-2c7d8e9f0a1b' },
  packets: [{ key: 'tenant', name: 'Ann Lee', email: 'ann@example.com' }],
  data: { rent: 1450, 'Move-in date': '2026-12-01' },
};

/** A sent packet as the API answers it: what the example says of it over the defaults. */
const packet = (own: Record<string, unknown>) => ({
  id: '',
  name: '',
  email: '',
  phone: '',
  auth_sms: false,
  auth_selfie: false,
  auth_id: false,
  suppress_all: false,
  suppress_docs_ready: false,
  suppress_signing: false,
  suppress_reminder: false,
  person_id: null,
  deliver_via: 'email',
  order: 0,
  status: 'se',
  completed_at: null,
  last_accessed_at: null,
  signing_complete_redirect: '',
  language: null,
  allow_reassign: false,
  ...own,
});

/** The bundle that request creates (and GET /bundles/{id}/ answers). */
export const bundle = {
  id: 'aB3dE5fG7h',
  label: 'Lease 4B',
  in_order: false,
  email_subject: 'Please sign your lease',
  email_message: '',
  sms_message: '',
  requester_name: 'Demo Account',
  requester_email: 'demo@example.com',
  cc_emails: [],
  custom_key: 'lease-4b',
  team: null,
  is_test: false,
  language: null,
  status: 'se',
  payment: null,
  created: '2026-03-02T09:15:00.000Z',
  sent: '2026-03-02T09:15:00.000Z',
  completed_at: null,
  docs_ready: false,
  errors: [],
  packets: [
    packet({
      id: 'pQ1rS2tU3v',
      name: 'Ann Lee',
      email: 'ann@example.com',
      person_id: '5b2f6c1e-8d4a-4e2b-9c3f-1a2b3c4d5e6f',
      deliver_via: 'email',
      order: 1,
    }),
    packet({
      id: 'wX4yZ5aB6c',
      name: 'Bo Chen',
      phone: '+1 555 010 3000',
      person_id: '7c3a9e2d-1f4b-4a6c-8d2e-3f4a5b6c7d8e',
      deliver_via: 'phone',
      order: 2,
    }),
  ],
  documents: [
    {
      template_id: null,
      key: 'lease',
      name: 'lease.pdf',
    },
  ],
  tags: [],
  expires: null,
  cc_sender: false,
  send_reminders: false,
  reminder_offset: null,
  reminder_interval: null,
  reminder_expires: null,
  owner: null,
  signing_brand: null,
};

export const personRequest = {
  name: 'Ann Lee',
  metadata: {
    crm_id: 'C-1042',
  },
  channels: [
    {
      email: 'ann@example.com',
    },
    {
      phone: '+1 555 010 3000',
    },
  ],
};

export const person = {
  id: '5b2f6c1e-8d4a-4e2b-9c3f-1a2b3c4d5e6f',
  name: 'Ann Lee',
  metadata: {
    crm_id: 'C-1042',
  },
  is_user: false,
  channels: [
    {
      id: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
      kind: 'em',
      email: 'ann@example.com',
      phone: '',
    },
    {
      id: '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e',
      kind: 'mp',
      email: '',
      phone: '+1 555 010 3000',
    },
  ],
};

export const webhookRequest = {
  url: 'https://app.example.com/esign/events',
  event_types: ['bundle_sent', 'bundle_complete'],
};

export const webhook = {
  id: '3e4f5a6b-7c8d-4e9f-8a0b-1c2d3e4f5a6b',
  url: 'https://app.example.com/esign/events',
  enabled: true,
  json: true,
  event_types: ['bundle_sent', 'bundle_complete'],
  extra_headers: [],
};

/** One offer letter to two rows of signers; the second row's email is not valid. */
export const bulkRequest = {
  bundle: {
    label: 'Offer letter',
    packets: [
      {
        key: 'emp',
      },
      {
        key: 'hr',
        name: 'Hana Ruiz',
        email: 'hr@example.com',
      },
    ],
    documents: [
      {
        key: 'offer',
        file_url: 'https://example.com/offer.pdf',
        fields: [
          {
            kind: 'sig',
            page: 1,
            x: 10,
            y: 70,
            w: 30,
            h: 5,
            editors: ['emp'],
          },
          {
            kind: 'inp',
            key: 'title',
            page: 1,
            x: 10,
            y: 50,
            w: 30,
            h: 5,
            editors: ['hr'],
          },
          {
            kind: 'dat',
            key: 'start',
            label: 'Start date',
            page: 1,
            x: 10,
            y: 40,
            w: 30,
            h: 5,
            editors: ['hr'],
          },
        ],
      },
    ],
  },
  rows: [
    {
      signers: {
        emp: {
          name: 'Ann Lee',
          email: 'ann@example.com',
        },
      },
      fields: {
        title: 'Engineer',
      },
    },
    {
      signers: {
        emp: {
          name: 'Cy Diaz',
          email: 'cy@example',
        },
      },
      fields: {
        title: 'Designer',
      },
      // By a field's key or label, as a create's `data`.
      data: { 'Start date': '2027-01-04' },
    },
  ],
};

/** The batch as POST answers it: every row still to do. */
export const bulkAccepted = {
  id: '9b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e',
  status: 'queued',
  created: '2026-03-02T09:15:00.000Z',
  counts: {
    total: 2,
    pending: 2,
    created: 0,
    failed: 0,
  },
  rows: [
    {
      row: 0,
      status: 'pending',
    },
    {
      row: 1,
      status: 'pending',
    },
  ],
};

/** The same batch once done: one bundle created, one row refused with the create's own errors. */
export const bulkDone = {
  id: '9b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e',
  status: 'completed',
  created: '2026-03-02T09:15:00.000Z',
  completed: '2026-03-02T09:15:01.000Z',
  counts: {
    total: 2,
    pending: 0,
    created: 1,
    failed: 1,
  },
  rows: [
    {
      row: 0,
      status: 'created',
      bundle_id: 'hJ8kL9mN0p',
    },
    {
      row: 1,
      status: 'failed',
      errors: [
        {
          field: 'packets[0].email',
          message: 'Enter a valid email address.',
        },
      ],
    },
  ],
};

export const rateLimit = {
  limit: 10000,
  remaining: 9874,
  reset: 36083,
  window: 86400,
};

/**
 * A document template made from a PDF form's own fields (`form_fields`): the IRS W-4's fields
 * named `topmostSubform[0].Page1[0]…`, all the employee's but the employer's part.
 */
export const formTemplateRequest = {
  name: 'Form W-4',
  roles: [
    { key: 'employee', label: 'Employee' },
    { key: 'employer', label: 'Employer' },
  ],
  file_url: 'https://example.com/fw4.pdf',
  form_fields: true,
  form_field_editors: {
    'topmostSubform[0].Page1[0].f1_13[0]': 'employer',
    '*': 'employee',
  },
};

/** A field of that template as the API answers it: what the example says of it over the defaults. */
const templateField = (own: Record<string, unknown>) => ({
  key: '',
  kind: 'inp',
  label: '',
  required: false,
  page: 1,
  x: 0,
  y: 0,
  w: 0,
  h: 0,
  v_pattern: null,
  v_min: null,
  v_max: null,
  v_attachment_types: [],
  v_regex: null,
  v_regex_msg: null,
  format: '',
  default_value: null,
  editor_roles: [],
  tag: null,
  ...own,
});

/** The template that request makes: two of its fields. */
export const formTemplate = {
  id: '0b8e6f52-5c1d-4f7a-9a3e-2d6c8b1f4e07',
  name: 'Form W-4',
  is_shared: false,
  file_url: 'https://esign.example.com/files/templates/0b8e6f52.pdf?expires=1767225600&signature=…',
  team: null,
  owner: '7d1e4c2a-8b3f-4e9d-a6c5-1f2e3d4c5b6a',
  page_count: 4,
  roles: formTemplateRequest.roles,
  fields: [
    templateField({
      key: 'Page1_f1_01',
      label: 'Step 1: (a) First name and middle initial.',
      x: 13.43,
      y: 14.2,
      w: 34.64,
      h: 1.76,
      editor_roles: ['employee'],
    }),
    templateField({
      key: 'Page1_f1_13',
      label: "Employer's name and address",
      x: 7.52,
      y: 90.15,
      w: 51.3,
      h: 4.18,
      v_max: 120,
      editor_roles: ['employer'],
    }),
  ],
  created: '2026-01-05T10:00:00.000Z',
  updated: '2026-01-05T10:00:00.000Z',
};
