/**
 * What the baseline servers answer: a record-shaped JSON body of about the size of a REST
 * `records.get` answer, so the floor pays the same bytes on the wire as the tools do.
 */
export const FIXED_BODY = {
  id: 'rec_01JZ8Q2M3N4P5R6S7T8V9W0XYZ',
  record_id: 'rec_01JZ8Q2M3N4P5R6S7T8V9W0XYZ',
  object_type_slug: 'contacts',
  data: {
    name: 'Ada Lovelace',
    email: 'ada.lovelace@analytical-engines.com',
    phone: '+44 20 7946 0958',
    job_title: 'Head of Engineering',
    company: 'rec_01JZ8Q2M3N4P5R6S7T8V9W0XYA',
  },
  display_name: 'Ada Lovelace',
  assignee_id: 'usr_01JZ8Q2M3N4P5R6S7T8V9W0XYB',
  created_by: 'usr_01JZ8Q2M3N4P5R6S7T8V9W0XYB',
  created_at: '2026-01-31T09:30:00.000Z',
  updated_at: '2026-01-31T09:30:00.000Z',
  deleted_at: null,
  relations: [
    { type: 'company', source: 'field', direction: 'outgoing', record: { record_id: 'rec_01JZ8Q2M3N4P5R6S7T8V9W0XYA', object_type_slug: 'companies', display_name: 'Analytical Engines' } },
    { type: 'contacts', source: 'field', direction: 'incoming', record: { record_id: 'rec_01JZ8Q2M3N4P5R6S7T8V9W0XYC', object_type_slug: 'deals', display_name: 'Analytical Engines – renewal' } },
  ],
};
