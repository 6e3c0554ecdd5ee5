/** Word lists for demo records: names repeat, as they do in a real CRM. */

export const FIRST = `amara arjun bea caleb dina elif farid greta hiro ines jonah kemal lea mateo nia oren pia quentin
rhea soren talia umar vera wren xavi yasmin zeno alma bruno cleo dario esme flynn`.split(/\s+/);

export const LAST = `achebe berg castro diaz eklund fournier grieg holm iqbal jovanovic kato lund marsh nowak ortiz
pereira quist rahman santos thorne ueda voss wolff xu yilmaz zeller`.split(/\s+/);

export const HEADS = `alder basalt cinder drift ember fennel glint heron ion jasper kite larch moss nettle opal
pewter quill rook slate thistle umber vale wisp yarrow zephyr`.split(/\s+/);

export const TAILS = `labs systems works partners logistics health capital robotics studio foods`.split(/\s+/);

export const INDUSTRIES = ['software', 'financial_services', 'healthcare', 'manufacturing', 'retail', 'education', 'media', 'other'];

export const TITLES = ['CEO', 'CTO', 'VP Sales', 'Head of Operations', 'Engineer', 'Product Manager', 'Buyer', 'Partner', 'Analyst'];

export const NOTE_TOPICS = ['Intro call', 'Demo follow-up', 'Pricing discussion', 'Quarterly check-in', 'Conference chat', 'Renewal talk'];

export const EMAIL_SUBJECTS = ['Following up on our call', 'Proposal attached', 'Next steps', 'Intro: you two should meet', 'Renewal terms'];

export const MEETING_TITLES = ['Discovery call', 'Product demo', 'Quarterly business review', 'Contract review', 'Partnership sync'];

export const TASK_TOPICS = ['Send proposal', 'Book a demo', 'Share case study', 'Check contract', 'Schedule QBR'];
