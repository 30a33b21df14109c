/**
 * Reference tables of the snapshot (amenities, option types, reference FX, remote config)
 * and the invented operators. Operator names are made up and deliberately odd: the sample
 * must not attribute prices to real brands. Their websites and e-mail addresses use the
 * reserved `.example` top-level domain.
 */
import type { CurrencyCode, Names } from './geography.ts';

export interface Amenity { slug: string; labels: Names; /** share of spaces that have it */ share: number }

export const AMENITIES: Amenity[] = [
  { slug: 'wifi', labels: { en: 'Wi-Fi', de: 'WLAN', es: 'Wifi' }, share: 0.97 },
  { slug: 'coffee', labels: { en: 'Free coffee', de: 'Kaffee inklusive', es: 'Café incluido' }, share: 0.8 },
  { slug: 'printing', labels: { en: 'Printing', de: 'Drucker', es: 'Impresora' }, share: 0.6 },
  { slug: 'meeting_rooms', labels: { en: 'Meeting rooms', de: 'Besprechungsräume', es: 'Salas de reuniones' }, share: 0.7 },
  { slug: 'phone_booths', labels: { en: 'Phone booths', de: 'Telefonkabinen', es: 'Cabinas telefónicas' }, share: 0.45 },
  { slug: 'lockers', labels: { en: 'Lockers', de: 'Schließfächer', es: 'Taquillas' }, share: 0.4 },
  { slug: 'bike_storage', labels: { en: 'Bike storage', de: 'Fahrradstellplätze', es: 'Aparcamiento de bicis' }, share: 0.35 },
  { slug: 'parking', labels: { en: 'Parking', de: 'Parkplätze', es: 'Aparcamiento' }, share: 0.25 },
  { slug: 'kitchen', labels: { en: 'Kitchen', de: 'Küche', es: 'Cocina' }, share: 0.75 },
  { slug: 'showers', labels: { en: 'Showers', de: 'Duschen', es: 'Duchas' }, share: 0.25 },
  { slug: '24_7_access', labels: { en: '24/7 access', de: 'Zugang rund um die Uhr', es: 'Acceso 24/7' }, share: 0.35 },
  { slug: 'reception', labels: { en: 'Reception', de: 'Empfang', es: 'Recepción' }, share: 0.5 },
  { slug: 'mail_handling', labels: { en: 'Mail handling', de: 'Postservice', es: 'Gestión de correo' }, share: 0.4 },
  { slug: 'event_space', labels: { en: 'Event space', de: 'Eventfläche', es: 'Espacio para eventos' }, share: 0.3 },
  { slug: 'terrace', labels: { en: 'Terrace', de: 'Terrasse', es: 'Terraza' }, share: 0.25 },
  { slug: 'pet_friendly', labels: { en: 'Pets welcome', de: 'Haustiere willkommen', es: 'Se admiten mascotas' }, share: 0.2 },
  { slug: 'wheelchair_access', labels: { en: 'Step-free access', de: 'Barrierefreier Zugang', es: 'Acceso sin escalones' }, share: 0.45 },
  { slug: 'air_conditioning', labels: { en: 'Air conditioning', de: 'Klimaanlage', es: 'Aire acondicionado' }, share: 0.5 },
  { slug: 'standing_desks', labels: { en: 'Standing desks', de: 'Stehtische', es: 'Mesas elevables' }, share: 0.3 },
  { slug: 'community_events', labels: { en: 'Community events', de: 'Community-Events', es: 'Eventos de comunidad' }, share: 0.4 },
];

export const OPTION_TYPE_LABELS: Array<{ optionType: string; labels: Names }> = [
  { optionType: 'private_office', labels: { en: 'Private office', de: 'Privatbüro', es: 'Despacho privado' } },
  { optionType: 'exclusive_bereich', labels: { en: 'Exclusive area', de: 'Exklusiver Bereich', es: 'Área exclusiva' } },
  { optionType: 'fix_desk', labels: { en: 'Fixed desk', de: 'Fester Arbeitsplatz', es: 'Puesto fijo' } },
  { optionType: 'flex_desk', labels: { en: 'Flexible desk', de: 'Flexibler Arbeitsplatz', es: 'Puesto flexible' } },
  { optionType: 'day_pass', labels: { en: 'Day pass', de: 'Tagespass', es: 'Pase de día' } },
  { optionType: 'meeting_room', labels: { en: 'Meeting room', de: 'Besprechungsraum', es: 'Sala de reuniones' } },
  { optionType: 'virtual_office', labels: { en: 'Virtual office', de: 'Virtuelles Büro', es: 'Oficina virtual' } },
  { optionType: 'event_space', labels: { en: 'Event space', de: 'Eventfläche', es: 'Espacio para eventos' } },
  { optionType: 'membership', labels: { en: 'Membership', de: 'Mitgliedschaft', es: 'Membresía' } },
];

/**
 * Reference rates, units of each currency per euro, used downstream only to order prices
 * across currencies. They are assumptions fixed at the snapshot's reference date, not
 * market quotes: in particular VES is assumed at roughly 500 bolívares per euro, the order
 * of magnitude expected for the observation window (the bolívar loses value month by month,
 * which is also why the sample's VES prices drift upwards much faster than the others).
 */
export const FX_AS_OF = '2026-10-31';
export const FX_UNITS_PER_EUR: Record<CurrencyCode, string> = {
  EUR: '1',
  GBP: '0.86',
  USD: '1.16',
  CHF: '0.93',
  AED: '4.26',
  VES: '500',
};

export const CONFIG = {
  minSupportedBuild: 100,
  recommendedBuild: 120,
  flags: {
    mapView: true,
    priceIndex: true,
    marketPosition: true,
    shortlistInquiry: true,
    addressSearch: true,
  },
  message: {
    title: 'Sample catalogue',
    body: 'This build serves invented sample spaces and prices over real geography.',
    severity: 'info',
  },
} as const;

export interface Operator {
  name: string;
  /** Short form used in space names ("<brand> <neighbourhood>"). */
  brand: string;
  domain: string;
  mailbox: string;
  hasLogo: boolean;
  /** GeoNames ids of the cities it operates in; the first is its home city. */
  cities: number[];
  weight: number;
  kind: 'coworking' | 'business_centre' | 'studio';
}

const BER = 2950159, HAM = 2911298, MUC = 2867714, CGN = 2886242, FRA = 2925533, STR = 2825297,
  DUS = 2934246, LEJ = 2879139, MAD = 3117735, BCN = 3128760, VLC = 2509954, SVQ = 2510911,
  AGP = 2514256, BIO = 3128026, VIE = 2761369, GRZ = 2778067, PAR = 2988507, LYS = 2996944,
  AMS = 2759794, RTM = 2747891, LIS = 2267057, OPO = 2735943, LON = 2643743, MAN = 2643123,
  EDI = 2650225, NYC = 5128581, SFO = 5391959, AUS = 4671654, MIA = 4164138, ZRH = 2657896,
  GVA = 2660646, BSL = 2661604, CCS = 3646738, VLN = 3625549, MAR = 3633009, DXB = 292223,
  AUH = 292968, SZG = 2766824;

const op = (name: string, brand: string, domain: string, mailbox: string, hasLogo: boolean,
  kind: Operator['kind'], weight: number, cities: number[]): Operator =>
  ({ name, brand, domain, mailbox, hasLogo, kind, weight, cities });

export const OPERATORS: Operator[] = [
  op('Quillhaven Workspaces', 'Quillhaven', 'quillhaven.example', 'bookings', true, 'coworking', 3,
    [BER, MUC, HAM, VIE, ZRH, LON, AMS, PAR, MAD, BCN]),
  op('Brightweft Offices', 'Brightweft', 'brightweft.example', 'enquiries', true, 'business_centre', 3,
    [LON, MAN, EDI, NYC, SFO, MIA, AUS]),
  op('Tessellate Commons', 'Tessellate', 'tessellate-commons.example', 'hello', true, 'coworking', 2,
    [BER, LEJ, HAM, CGN]),
  op('Cobalt Yard', 'Cobalt Yard', 'cobaltyard.example', 'bookings', true, 'coworking', 1.5, [LON, MAN]),
  op('Larkspur Desks', 'Larkspur', 'larkspurdesks.example', 'bookings', true, 'coworking', 2,
    [NYC, AUS, MIA, SFO]),
  op('Nordlicht Werkraum', 'Nordlicht', 'nordlicht-werkraum.example', 'buchung', true, 'coworking', 2,
    [HAM, BER, DUS, CGN, FRA]),
  op('Solvane Cowork', 'Solvane', 'solvane.example', 'reservas', true, 'coworking', 2.5,
    [MAD, BCN, VLC, SVQ, AGP, BIO, LIS, OPO]),
  op('Ferrule Works', 'Ferrule Works', 'ferrule-works.example', 'bookings', false, 'studio', 1, [BER]),
  op('Pinewick Collective', 'Pinewick', 'pinewick.example', 'bookings', true, 'coworking', 1.5, [AMS, RTM]),
  op('Orrery Business Centres', 'Orrery', 'orrery-centres.example', 'enquiries', true, 'business_centre', 2.5,
    [DXB, AUH, LON, GVA, ZRH]),
  op('Ondine Workrooms', 'Ondine', 'ondine-workrooms.example', 'reservations', true, 'coworking', 2,
    [PAR, LYS, GVA]),
  op('Kettle & Key', 'Kettle & Key', 'kettleandkey.example', 'bookings', false, 'studio', 1, [LON]),
  op('Amberwell Studios', 'Amberwell', 'amberwell.example', 'bookings', true, 'studio', 1, [MAN, EDI]),
  op('Almendra Espacios', 'Almendra', 'almendra-espacios.example', 'reservas', true, 'coworking', 1.5,
    [MAD, VLC, SVQ]),
  op('Zephyrine Offices', 'Zephyrine', 'zephyrine.example', 'enquiries', true, 'business_centre', 2,
    [ZRH, BSL, GVA, MUC, FRA, VIE]),
  op('Basalt & Birch', 'Basalt & Birch', 'basaltandbirch.example', 'buchung', true, 'coworking', 1, [MUC, STR]),
  op('Tidewell Desks', 'Tidewell', 'tidewell.example', 'bookings', true, 'coworking', 1.5, [LIS, OPO]),
  op('Grauwerk Büros', 'Grauwerk', 'grauwerk.example', 'buero', true, 'business_centre', 1.5, [VIE, GRZ]),
  op('Lumenfold', 'Lumenfold', 'lumenfold.example', 'hello', true, 'coworking', 1.5, [BER, AMS, LIS, BCN, NYC]),
  op('Papelillo Cowork', 'Papelillo', 'papelillo.example', 'hola', false, 'studio', 1, [BCN]),
  op('Saffrane Suites', 'Saffrane', 'saffrane-suites.example', 'enquiries', true, 'business_centre', 1.5,
    [DXB, AUH, MIA]),
  op('Cardamom House', 'Cardamom House', 'cardamomhouse.example', 'bookings', false, 'coworking', 1, [DXB]),
  op('Mosswood Office Club', 'Mosswood', 'mosswood.example', 'bookings', true, 'coworking', 1, [SFO, AUS]),
  op('Kestrel Row', 'Kestrel Row', 'kestrelrow.example', 'enquiries', true, 'business_centre', 1.5, [LON, NYC]),
  op('Inkwell Lane', 'Inkwell Lane', 'inkwell-lane.example', 'bookings', false, 'studio', 1, [EDI, MAN, LON]),
  op('Samán Cowork', 'Samán', 'saman-cowork.example', 'reservas', true, 'coworking', 1.5, [CCS, VLN, MAR]),
  op('Bruma Oficinas', 'Bruma', 'bruma-oficinas.example', 'reservas', true, 'business_centre', 1, [BIO, MAD]),
  op('Marquetry Hall', 'Marquetry', 'marquetry-hall.example', 'buchung', true, 'business_centre', 1.5,
    [FRA, DUS, CGN, STR]),
  op('Halden & Vey', 'Halden & Vey', 'haldenvey.example', 'office', true, 'business_centre', 1, [MUC, VIE, ZRH, SZG]),
  op('Cinnabar Desks', 'Cinnabar', 'cinnabar-desks.example', 'reservas', false, 'studio', 0.5, [CCS]),
  op('Gullwing Workspace', 'Gullwing', 'gullwing.example', 'bookings', true, 'coworking', 1, [MIA, NYC]),
];
