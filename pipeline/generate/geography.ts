/**
 * Curated, real geography for the sample snapshot: countries, cities and neighbourhoods.
 *
 * Facts, not sample data: city ids are GeoNames ids, centres and populations are the
 * GeoNames figures (rounded), zone centres are approximate neighbourhood centres, and the
 * streets are real streets of that neighbourhood. Populations are GeoNames' city figures.
 * Where two cities share a name, the pipeline gives the plain slug to the lowest GeoNames id
 * (data/README.md): `valencia` is Spain's (2509954) and `valencia-ve` Venezuela's (3625549),
 * although Venezuela's is the more populous.
 *
 * Only the generator's knobs are invented: `weight` (share of the sample's spaces),
 * `fixedSpaces` (a deliberately thin city), `flexDesk` (the typical monthly flex-desk price
 * in local currency around which the city's prices are drawn) and the postal templates
 * (`#` a digit, `@` a letter) that produce plausible codes in each city's real range.
 */
import { byLocale, type FALLBACK_LOCALE, type Locale } from '../../contract/common.ts';

/** ISO 3166-1 alpha-2: the curated countries here, more in the scaled geography (scale.ts). */
export type CountryCode = string;
export type CurrencyCode = 'EUR' | 'GBP' | 'USD' | 'CHF' | 'VES' | 'AED';
/**
 * A text of the sample in the locales it is written in: always FALLBACK_LOCALE's, others where
 * someone wrote them. A locale without one gets an empty column, which the pipeline fills from
 * FALLBACK_LOCALE (and counts), so a new locale in LOCALES needs no copy here.
 */
export type Written<T> = Partial<Record<Locale, T>> & Record<typeof FALLBACK_LOCALE, T>;
export type Names = Written<string>;
export type Tz = 'eu-cet' | 'eu-wet' | 'eu-eet' | 'uk' | 'us-east' | 'us-central' | 'us-mountain' | 'us-pacific'
  | 'utc-7' | 'utc-6' | 'utc-5' | 'utc-4' | 'utc+4';

export interface Country {
  code: CountryCode;
  names: Names;
  currency: CurrencyCode;
  /** How house numbers and addresses look there. */
  addressStyle: 'de' | 'es' | 'en' | 'us' | 'fr' | 'nl' | 'pt' | 'ae';
  /** Time zone rule used for observation timestamps. */
  tz: Tz;
  /** Languages the spaces' own copy leans on (affects independent space names). */
  lang: 'de' | 'es' | 'en' | 'fr' | 'nl' | 'pt' | 'it';
}

export interface Zone {
  names: Names;
  lat: number;
  lng: number;
  streets: string[];
  postal?: string[];
}

export interface City {
  geonameId: number;
  country: CountryCode;
  /** Where the city's time zone differs from its country's. */
  tz?: Tz;
  names: Names;
  lat: number;
  lng: number;
  population: number;
  weight: number;
  fixedSpaces?: number;
  flexDesk: number;
  postal: string[];
  zones: Zone[];
  /** Extra real streets of the city outside the listed zones. */
  streets: string[];
  intro?: Names;
}

/** A proper name written the same in every locale (Kreuzberg). */
export const same = (name: string): Names => byLocale(() => name);
const z = (name: string | Names, lat: number, lng: number, streets: string[], postal?: string[]): Zone =>
  ({ names: typeof name === 'string' ? same(name) : name, lat, lng, streets, postal });

export const COUNTRIES: Country[] = [
  { code: 'DE', names: { en: 'Germany', de: 'Deutschland', es: 'Alemania' }, currency: 'EUR', addressStyle: 'de', tz: 'eu-cet', lang: 'de' },
  { code: 'ES', names: { en: 'Spain', de: 'Spanien', es: 'España' }, currency: 'EUR', addressStyle: 'es', tz: 'eu-cet', lang: 'es' },
  { code: 'AT', names: { en: 'Austria', de: 'Österreich', es: 'Austria' }, currency: 'EUR', addressStyle: 'de', tz: 'eu-cet', lang: 'de' },
  { code: 'FR', names: { en: 'France', de: 'Frankreich', es: 'Francia' }, currency: 'EUR', addressStyle: 'fr', tz: 'eu-cet', lang: 'fr' },
  { code: 'NL', names: { en: 'Netherlands', de: 'Niederlande', es: 'Países Bajos' }, currency: 'EUR', addressStyle: 'nl', tz: 'eu-cet', lang: 'nl' },
  { code: 'PT', names: { en: 'Portugal', de: 'Portugal', es: 'Portugal' }, currency: 'EUR', addressStyle: 'pt', tz: 'eu-wet', lang: 'pt' },
  { code: 'GB', names: { en: 'United Kingdom', de: 'Vereinigtes Königreich', es: 'Reino Unido' }, currency: 'GBP', addressStyle: 'en', tz: 'uk', lang: 'en' },
  { code: 'US', names: { en: 'United States', de: 'Vereinigte Staaten', es: 'Estados Unidos' }, currency: 'USD', addressStyle: 'us', tz: 'us-east', lang: 'en' },
  { code: 'CH', names: { en: 'Switzerland', de: 'Schweiz', es: 'Suiza' }, currency: 'CHF', addressStyle: 'de', tz: 'eu-cet', lang: 'de' },
  { code: 'VE', names: { en: 'Venezuela', de: 'Venezuela', es: 'Venezuela' }, currency: 'VES', addressStyle: 'es', tz: 'utc-4', lang: 'es' },
  { code: 'AE', names: { en: 'United Arab Emirates', de: 'Vereinigte Arabische Emirate', es: 'Emiratos Árabes Unidos' }, currency: 'AED', addressStyle: 'ae', tz: 'utc+4', lang: 'en' },
];

export const CITIES: City[] = [
  // ---------------------------------------------------------------- Germany
  {
    geonameId: 2950159, country: 'DE', names: { en: 'Berlin', de: 'Berlin', es: 'Berlín' },
    lat: 52.52437, lng: 13.41053, population: 3426354, weight: 120, flexDesk: 230, postal: ['10###', '12###'],
    zones: [
      z('Mitte', 52.5200, 13.4040, ['Friedrichstraße', 'Torstraße', 'Rosenthaler Straße', 'Invalidenstraße'], ['101##']),
      z('Kreuzberg', 52.4986, 13.4030, ['Oranienstraße', 'Skalitzer Straße', 'Ritterstraße'], ['109##']),
      z('Friedrichshain', 52.5158, 13.4540, ['Karl-Marx-Allee', 'Warschauer Straße', 'Revaler Straße'], ['102##']),
      z('Prenzlauer Berg', 52.5390, 13.4240, ['Kastanienallee', 'Schönhauser Allee'], ['104##']),
      z('Neukölln', 52.4811, 13.4354, ['Sonnenallee', 'Karl-Marx-Straße'], ['120##']),
      z('Charlottenburg', 52.5160, 13.3040, ['Kurfürstendamm', 'Kantstraße'], ['106##']),
      z('Schöneberg', 52.4830, 13.3530, ['Potsdamer Straße', 'Hauptstraße'], ['107##', '108##']),
    ],
    streets: ['Chausseestraße', 'Köpenicker Straße'],
    intro: {
      en: 'Berlin has one of Europe\'s densest coworking scenes: from converted factory floors in Kreuzberg and Friedrichshain to serviced offices around Friedrichstraße in Mitte.',
      de: 'Berlin hat eine der dichtesten Coworking-Landschaften Europas: von umgebauten Fabriketagen in Kreuzberg und Friedrichshain bis zu Serviced Offices rund um die Friedrichstraße in Mitte.',
      es: 'Berlín tiene una de las escenas de coworking más densas de Europa: desde antiguas fábricas reconvertidas en Kreuzberg y Friedrichshain hasta oficinas con servicios en torno a la Friedrichstraße, en Mitte.',
    },
  },
  {
    geonameId: 2911298, country: 'DE', names: { en: 'Hamburg', de: 'Hamburg', es: 'Hamburgo' },
    lat: 53.57532, lng: 10.01534, population: 1739117, weight: 60, flexDesk: 215, postal: ['20###', '22###'],
    zones: [
      z('Altstadt', 53.5500, 10.0000, ['Mönckebergstraße', 'Spitalerstraße'], ['200##']),
      z('St. Pauli', 53.5560, 9.9640, ['Schanzenstraße', 'Große Elbstraße'], ['203##', '207##']),
      z('HafenCity', 53.5410, 9.9980, ['Am Sandtorkai', 'Überseeallee'], ['204##']),
      z('Ottensen', 53.5530, 9.9260, ['Ottenser Hauptstraße', 'Bahrenfelder Straße'], ['227##']),
      z('Eimsbüttel', 53.5750, 9.9530, ['Osterstraße', 'Fruchtallee'], ['201##', '203##']),
    ],
    streets: ['Jungfernstieg'],
  },
  {
    geonameId: 2867714, country: 'DE', names: { en: 'Munich', de: 'München', es: 'Múnich' },
    lat: 48.13743, lng: 11.57549, population: 1260391, weight: 70, flexDesk: 265, postal: ['80###', '81###'],
    zones: [
      z('Altstadt-Lehel', 48.1372, 11.5850, ['Maximilianstraße', 'Kaufingerstraße'], ['803##']),
      z('Maxvorstadt', 48.1500, 11.5700, ['Theresienstraße', 'Schellingstraße'], ['803##', '807##']),
      z('Schwabing', 48.1650, 11.5850, ['Leopoldstraße'], ['808##']),
      z('Haidhausen', 48.1290, 11.6000, ['Rosenheimer Straße'], ['816##']),
      z('Sendling', 48.1180, 11.5430, ['Lindwurmstraße'], ['813##']),
    ],
    streets: ['Sonnenstraße'],
    intro: {
      en: 'Munich\'s coworking spaces cluster between the Altstadt, the university quarter of Maxvorstadt and Schwabing; prices are among the highest in Germany.',
      de: 'Münchens Coworking-Spaces liegen vor allem zwischen Altstadt, dem Uni-Viertel Maxvorstadt und Schwabing; die Preise gehören zu den höchsten in Deutschland.',
      es: 'Los espacios de coworking de Múnich se concentran entre el casco antiguo, el barrio universitario de Maxvorstadt y Schwabing; sus precios están entre los más altos de Alemania.',
    },
  },
  {
    geonameId: 2886242, country: 'DE', names: { en: 'Cologne', de: 'Köln', es: 'Colonia' },
    lat: 50.93333, lng: 6.95, population: 963395, weight: 35, flexDesk: 200, postal: ['50###', '51###'],
    zones: [
      z('Altstadt-Nord', 50.9420, 6.9550, ['Breite Straße', 'Hohenzollernring'], ['506##', '506##']),
      z('Ehrenfeld', 50.9500, 6.9170, ['Venloer Straße'], ['508##']),
      z({ en: 'Belgian Quarter', de: 'Belgisches Viertel', es: 'Barrio Belga' }, 50.9380, 6.9340, ['Aachener Straße', 'Brüsseler Straße'], ['506##']),
      z('Deutz', 50.9370, 6.9750, ['Deutzer Freiheit'], ['506##', '506##']),
      z('Südstadt', 50.9230, 6.9580, ['Severinstraße'], ['506##']),
    ],
    streets: ['Ehrenstraße'],
  },
  {
    geonameId: 2925533, country: 'DE', names: { en: 'Frankfurt', de: 'Frankfurt am Main', es: 'Fráncfort' },
    lat: 50.11552, lng: 8.68417, population: 650000, weight: 40, flexDesk: 245, postal: ['60###'],
    zones: [
      z('Innenstadt', 50.1130, 8.6800, ['Zeil', 'Kaiserstraße'], ['603##']),
      z('Westend', 50.1200, 8.6600, ['Bockenheimer Landstraße'], ['603##']),
      z('Sachsenhausen', 50.1000, 8.6850, ['Schweizer Straße'], ['605##']),
      z('Bahnhofsviertel', 50.1070, 8.6680, ['Mainzer Landstraße', 'Münchener Straße'], ['603##']),
      z('Ostend', 50.1130, 8.7100, ['Hanauer Landstraße'], ['603##']),
      z('Nordend', 50.1280, 8.6900, ['Berger Straße'], ['603##']),
    ],
    streets: [],
  },
  {
    geonameId: 2825297, country: 'DE', names: same('Stuttgart'),
    lat: 48.78232, lng: 9.17702, population: 589793, weight: 25, flexDesk: 210, postal: ['701##', '70###'],
    zones: [
      z('Mitte', 48.7760, 9.1770, ['Königstraße', 'Theodor-Heuss-Straße', 'Calwer Straße']),
      z('West', 48.7750, 9.1550, ['Rotebühlstraße']),
      z('Bad Cannstatt', 48.8050, 9.2150, ['Marktstraße']),
    ],
    streets: ['Marienstraße'],
  },
  {
    geonameId: 2934246, country: 'DE', names: same('Düsseldorf'),
    lat: 51.22172, lng: 6.77616, population: 573057, weight: 25, flexDesk: 215, postal: ['402##', '40###'],
    zones: [
      z('Altstadt', 51.2260, 6.7730, ['Bolkerstraße']),
      z('Medienhafen', 51.2130, 6.7490, ['Speditionstraße', 'Kaistraße']),
      z('Pempelfort', 51.2380, 6.7850, ['Kaiserswerther Straße']),
      z('Flingern', 51.2270, 6.8080, ['Ackerstraße']),
    ],
    streets: ['Königsallee', 'Berliner Allee'],
  },
  {
    geonameId: 2879139, country: 'DE', names: same('Leipzig'),
    lat: 51.33962, lng: 12.37129, population: 504971, weight: 20, flexDesk: 165, postal: ['04###'],
    zones: [
      z('Zentrum', 51.3400, 12.3740, ['Grimmaische Straße', 'Petersstraße']),
      z('Plagwitz', 51.3270, 12.3330, ['Karl-Heine-Straße']),
      z('Südvorstadt', 51.3200, 12.3750, ['Karl-Liebknecht-Straße']),
    ],
    streets: ['Gottschedstraße'],
  },
  // ---------------------------------------------------------------- Spain
  {
    geonameId: 3117735, country: 'ES', names: same('Madrid'),
    lat: 40.4165, lng: -3.70256, population: 3255944, weight: 100, flexDesk: 195, postal: ['280##'],
    zones: [
      z('Centro', 40.4155, -3.7074, ['Gran Vía', 'Calle de Atocha', 'Calle de Alcalá']),
      z('Salamanca', 40.4270, -3.6800, ['Calle de Serrano', 'Calle de Velázquez', 'Calle del Príncipe de Vergara']),
      z('Chamberí', 40.4340, -3.7040, ['Calle de Santa Engracia', 'Calle de Fuencarral']),
      z('Malasaña', 40.4260, -3.7050, ['Calle de San Bernardo', 'Calle del Pez']),
      z('Lavapiés', 40.4090, -3.7010, ['Calle de Embajadores', 'Calle del Ave María']),
      z('Chamartín', 40.4580, -3.6760, ['Paseo de la Castellana', 'Calle de Alberto Alcocer']),
      z('Retiro', 40.4110, -3.6760, ['Calle de O\'Donnell', 'Avenida de Menéndez Pelayo']),
      z('Arganzuela', 40.3980, -3.6970, ['Paseo de la Chopera', 'Paseo de las Delicias']),
    ],
    streets: ['Calle de Bravo Murillo', 'Calle de Génova'],
    intro: {
      en: 'Madrid\'s coworking market stretches from the historic Centro and Malasaña to the business towers of Paseo de la Castellana, with prices well below those of London or Paris.',
      de: 'Madrids Coworking-Markt reicht vom historischen Centro und Malasaña bis zu den Bürotürmen am Paseo de la Castellana – zu Preisen deutlich unter denen von London oder Paris.',
      es: 'El coworking en Madrid se extiende desde el Centro histórico y Malasaña hasta las torres de oficinas del Paseo de la Castellana, con precios muy por debajo de Londres o París.',
    },
  },
  {
    geonameId: 3128760, country: 'ES', names: same('Barcelona'),
    lat: 41.38879, lng: 2.15899, population: 1620343, weight: 90, flexDesk: 205, postal: ['080##'],
    zones: [
      z('Eixample', 41.3910, 2.1630, ['Passeig de Gràcia', 'Carrer d\'Aragó', 'Rambla de Catalunya']),
      z('Gràcia', 41.4030, 2.1560, ['Carrer de Verdi', 'Travessera de Gràcia']),
      z('El Born', 41.3850, 2.1820, ['Carrer de la Princesa', 'Carrer del Rec']),
      z('Poblenou', 41.4000, 2.2000, ['Carrer de Pallars', 'Rambla del Poblenou', 'Avinguda Diagonal']),
      z({ en: 'Gothic Quarter', de: 'Gotisches Viertel', es: 'Barrio Gótico' }, 41.3830, 2.1770, ['Via Laietana', 'Carrer de Ferran']),
      z('Sants', 41.3750, 2.1350, ['Carrer de Sants']),
    ],
    streets: ['Carrer de Balmes', 'Via Augusta'],
  },
  {
    geonameId: 2509954, country: 'ES', names: same('Valencia'),
    lat: 39.46975, lng: -0.37739, population: 814208, weight: 35, flexDesk: 155, postal: ['460##'],
    zones: [
      z('Ciutat Vella', 39.4750, -0.3760, ['Calle de la Paz', 'Calle de San Vicente Mártir']),
      z('Ruzafa', 39.4620, -0.3730, ['Calle de Sueca', 'Calle de Cuba']),
      z('El Carmen', 39.4790, -0.3800, ['Calle de Caballeros', 'Calle de Quart']),
      z('Benimaclet', 39.4850, -0.3590, ['Avenida de Blasco Ibáñez']),
      z('El Cabanyal', 39.4700, -0.3300, ['Calle de la Reina']),
    ],
    streets: ['Calle de Colón', 'Gran Vía del Marqués del Turia', 'Avenida del Reino de Valencia'],
    intro: {
      en: 'Valencia combines a lively coworking scene in Ruzafa and the old town with moderate prices and easy access to the beach at El Cabanyal.',
      de: 'Valencia verbindet eine lebendige Coworking-Szene in Ruzafa und der Altstadt mit moderaten Preisen und kurzen Wegen zum Strand von El Cabanyal.',
      es: 'Valencia combina una animada escena de coworking en Ruzafa y Ciutat Vella con precios moderados y la playa de El Cabanyal a un paso.',
    },
  },
  {
    geonameId: 2510911, country: 'ES', names: { en: 'Seville', de: 'Sevilla', es: 'Sevilla' },
    lat: 37.38283, lng: -5.97317, population: 703206, weight: 25, flexDesk: 145, postal: ['410##'],
    zones: [
      z('Casco Antiguo', 37.3890, -5.9930, ['Calle Sierpes', 'Avenida de la Constitución']),
      z('Triana', 37.3830, -6.0030, ['Calle San Jacinto', 'Calle Pagés del Corro']),
      z('Nervión', 37.3830, -5.9720, ['Avenida de Eduardo Dato', 'Calle Luis de Morales']),
      z('Los Remedios', 37.3750, -5.9990, ['Calle Asunción', 'Avenida de la República Argentina']),
    ],
    streets: [],
  },
  {
    geonameId: 2514256, country: 'ES', names: same('Málaga'),
    lat: 36.72016, lng: -4.42034, population: 568305, weight: 25, flexDesk: 170, postal: ['290##'],
    zones: [
      z('Centro', 36.7210, -4.4200, ['Calle Larios', 'Calle Granada']),
      z('Soho', 36.7160, -4.4250, ['Calle Tomás Heredia', 'Alameda Principal']),
      z('Teatinos', 36.7200, -4.4730, ['Avenida de Plutarco']),
    ],
    streets: ['Avenida de Andalucía'],
  },
  {
    geonameId: 3128026, country: 'ES', names: same('Bilbao'),
    lat: 43.26271, lng: -2.92528, population: 354860, weight: 18, flexDesk: 160, postal: ['480##'],
    zones: [
      z('Abando', 43.2620, -2.9330, ['Gran Vía de Don Diego López de Haro', 'Alameda de Mazarredo', 'Calle de Ercilla']),
      z('Casco Viejo', 43.2580, -2.9230, ['Calle de la Ribera', 'Calle Somera']),
      z('Deusto', 43.2710, -2.9450, ['Avenida Lehendakari Aguirre']),
    ],
    streets: ['Calle de Iparraguirre'],
  },
  // ---------------------------------------------------------------- Austria
  {
    geonameId: 2761369, country: 'AT', names: { en: 'Vienna', de: 'Wien', es: 'Viena' },
    lat: 48.20849, lng: 16.37208, population: 1691468, weight: 55, flexDesk: 225, postal: ['1010', '1020', '1030', '1040', '1050', '1060', '1070', '1080', '1090'],
    zones: [
      z('Innere Stadt', 48.2085, 16.3721, ['Kärntner Straße', 'Wipplingerstraße'], ['1010']),
      z('Leopoldstadt', 48.2170, 16.3900, ['Praterstraße', 'Taborstraße'], ['1020']),
      z('Landstraße', 48.1990, 16.3950, ['Landstraßer Hauptstraße'], ['1030']),
      z('Wieden', 48.1920, 16.3700, ['Wiedner Hauptstraße'], ['1040']),
      z('Mariahilf', 48.1960, 16.3500, ['Mariahilfer Straße', 'Gumpendorfer Straße'], ['1060']),
      z('Neubau', 48.2020, 16.3480, ['Neubaugasse', 'Zieglergasse'], ['1070']),
      z('Josefstadt', 48.2100, 16.3470, ['Josefstädter Straße', 'Lange Gasse'], ['1080']),
      z('Alsergrund', 48.2250, 16.3570, ['Währinger Straße', 'Porzellangasse'], ['1090']),
    ],
    streets: [],
    intro: {
      en: 'Vienna\'s coworking spaces sit in the inner districts, from the Innere Stadt to Neubau and Mariahilf, often in converted Gründerzeit buildings.',
      de: 'Wiens Coworking-Spaces liegen in den inneren Bezirken, von der Inneren Stadt bis Neubau und Mariahilf, oft in umgebauten Gründerzeithäusern.',
      es: 'Los espacios de coworking de Viena se reparten por los distritos interiores, de la Innere Stadt a Neubau y Mariahilf, a menudo en edificios de la época Gründerzeit.',
    },
  },
  {
    geonameId: 2778067, country: 'AT', names: same('Graz'),
    lat: 47.06667, lng: 15.45, population: 291072, weight: 0, fixedSpaces: 3, flexDesk: 175, postal: ['8010', '8020'],
    zones: [z('Innere Stadt', 47.0707, 15.4395, ['Herrengasse', 'Sackstraße'], ['8010'])],
    streets: ['Annenstraße'],
  },
  {
    geonameId: 2766824, country: 'AT', names: { en: 'Salzburg', de: 'Salzburg', es: 'Salzburgo' },
    lat: 47.79941, lng: 13.04399, population: 155021, weight: 0, fixedSpaces: 4, flexDesk: 195, postal: ['5020'],
    zones: [],
    streets: ['Getreidegasse', 'Linzer Gasse', 'Rainerstraße'],
  },
  // ---------------------------------------------------------------- France
  {
    geonameId: 2988507, country: 'FR', names: { en: 'Paris', de: 'Paris', es: 'París' },
    lat: 48.85341, lng: 2.3488, population: 2138551, weight: 90, flexDesk: 330, postal: ['750##'],
    zones: [
      z('Le Marais', 48.8590, 2.3620, ['Rue de Turenne', 'Rue Vieille du Temple'], ['75003', '75004']),
      z('Saint-Germain-des-Prés', 48.8540, 2.3330, ['Boulevard Saint-Germain', 'Rue de Rennes'], ['75006']),
      z('Opéra', 48.8710, 2.3320, ['Boulevard Haussmann', 'Avenue de l\'Opéra'], ['75009', '75002']),
      z('Sentier', 48.8690, 2.3460, ['Rue Réaumur', 'Rue du Sentier'], ['75002']),
      z('Bastille', 48.8530, 2.3690, ['Rue de la Roquette', 'Rue du Faubourg Saint-Antoine'], ['75011', '75012']),
      z('Canal Saint-Martin', 48.8720, 2.3650, ['Quai de Valmy', 'Rue du Faubourg du Temple'], ['75010']),
      z('Montmartre', 48.8867, 2.3431, ['Rue des Martyrs', 'Rue Lepic'], ['75018']),
      z('Batignolles', 48.8870, 2.3160, ['Rue des Dames', 'Boulevard des Batignolles'], ['75017']),
    ],
    streets: ['Rue de Rivoli', 'Rue Oberkampf'],
  },
  {
    geonameId: 2996944, country: 'FR', names: same('Lyon'),
    lat: 45.74846, lng: 4.84671, population: 522969, weight: 25, flexDesk: 225, postal: ['6900#'],
    zones: [
      z('Presqu\'île', 45.7600, 4.8340, ['Rue de la République', 'Rue Mercière'], ['69002']),
      z('Part-Dieu', 45.7610, 4.8580, ['Rue Servient', 'Boulevard Vivier-Merle'], ['69003']),
      z('Confluence', 45.7410, 4.8180, ['Quai Perrache', 'Cours Charlemagne'], ['69002']),
      z('Croix-Rousse', 45.7740, 4.8320, ['Boulevard de la Croix-Rousse', 'Grande Rue de la Croix-Rousse'], ['69004']),
    ],
    streets: ['Cours Lafayette', 'Rue Garibaldi'],
  },
  // ---------------------------------------------------------------- Netherlands
  {
    geonameId: 2759794, country: 'NL', names: { en: 'Amsterdam', de: 'Amsterdam', es: 'Ámsterdam' },
    lat: 52.37403, lng: 4.88969, population: 741636, weight: 60, flexDesk: 305, postal: ['10## @@'],
    zones: [
      z('Centrum', 52.3730, 4.8930, ['Herengracht', 'Keizersgracht', 'Damrak'], ['101# @@']),
      z('Jordaan', 52.3750, 4.8800, ['Prinsengracht', 'Westerstraat'], ['1015 @@', '1016 @@']),
      z('De Pijp', 52.3540, 4.8950, ['Ferdinand Bolstraat', 'Van Woustraat'], ['1072 @@', '1073 @@']),
      z('Oost', 52.3600, 4.9300, ['Wibautstraat', 'Linnaeusstraat'], ['1091 @@', '1093 @@']),
      z('Noord', 52.3900, 4.9200, ['NDSM-plein', 'Buiksloterweg'], ['1031 @@', '1033 @@']),
      z('Zuidas', 52.3380, 4.8730, ['Gustav Mahlerlaan', 'Strawinskylaan'], ['1082 @@', '1077 @@']),
      z('Oud-West', 52.3650, 4.8670, ['Kinkerstraat', 'Overtoom'], ['1053 @@', '1054 @@']),
    ],
    streets: [],
  },
  {
    geonameId: 2747891, country: 'NL', names: { en: 'Rotterdam', de: 'Rotterdam', es: 'Róterdam' },
    lat: 51.9225, lng: 4.47917, population: 598199, weight: 20, flexDesk: 230, postal: ['30## @@'],
    zones: [
      z('Centrum', 51.9200, 4.4800, ['Coolsingel', 'Weena', 'Meent'], ['301# @@']),
      z('Kop van Zuid', 51.9050, 4.4880, ['Wilhelminakade', 'Laan op Zuid'], ['3072 @@']),
      z('Delfshaven', 51.9100, 4.4500, ['Schiedamseweg', 'Mathenesserlaan'], ['3024 @@']),
    ],
    streets: ['Witte de Withstraat', 'Schiedamse Vest'],
  },
  // ---------------------------------------------------------------- Portugal
  {
    geonameId: 2267057, country: 'PT', names: { en: 'Lisbon', de: 'Lissabon', es: 'Lisboa' },
    lat: 38.71667, lng: -9.13333, population: 517802, weight: 55, flexDesk: 200, postal: ['1###-###'],
    zones: [
      z('Baixa', 38.7110, -9.1370, ['Rua Augusta', 'Rua do Ouro'], ['1100-###']),
      z('Chiado', 38.7100, -9.1420, ['Rua Garrett', 'Rua do Alecrim'], ['1200-###']),
      z('Príncipe Real', 38.7170, -9.1500, ['Rua da Escola Politécnica', 'Rua Dom Pedro V'], ['1250-###']),
      z('Alcântara', 38.7040, -9.1780, ['Rua Rodrigues de Faria', 'Avenida 24 de Julho'], ['1300-###', '1350-###']),
      z('Avenidas Novas', 38.7380, -9.1470, ['Avenida da República', 'Avenida Fontes Pereira de Melo'], ['1050-###', '1069-###']),
      z('Parque das Nações', 38.7680, -9.0950, ['Avenida Dom João II', 'Alameda dos Oceanos'], ['1990-###']),
    ],
    streets: ['Avenida da Liberdade'],
    intro: {
      en: 'Lisbon became a magnet for remote workers in the past decade; coworking spaces range from Chiado and Príncipe Real to the riverside warehouses of Alcântara.',
      de: 'Lissabon ist im letzten Jahrzehnt zum Magneten für Remote-Arbeitende geworden; Coworking-Spaces reichen von Chiado und Príncipe Real bis zu den Lagerhallen am Fluss in Alcântara.',
      es: 'Lisboa se ha convertido en la última década en un imán para el trabajo en remoto; hay coworkings desde el Chiado y Príncipe Real hasta los almacenes junto al río en Alcântara.',
    },
  },
  {
    geonameId: 2735943, country: 'PT', names: { en: 'Porto', de: 'Porto', es: 'Oporto' },
    lat: 41.14961, lng: -8.61099, population: 249633, weight: 25, flexDesk: 170, postal: ['4###-###'],
    zones: [
      z('Baixa', 41.1470, -8.6110, ['Avenida dos Aliados', 'Rua de Santa Catarina', 'Rua do Almada'], ['4000-###']),
      z('Ribeira', 41.1410, -8.6130, ['Rua das Flores', 'Rua de Mouzinho da Silveira'], ['4050-###']),
      z('Boavista', 41.1580, -8.6300, ['Avenida da Boavista', 'Rua de Júlio Dinis'], ['4100-###', '4150-###']),
      z('Bonfim', 41.1480, -8.5960, ['Rua do Heroísmo', 'Rua de Santo Ildefonso'], ['4300-###']),
    ],
    streets: [],
  },
  // ---------------------------------------------------------------- United Kingdom
  {
    geonameId: 2643743, country: 'GB', names: { en: 'London', de: 'London', es: 'Londres' },
    lat: 51.50853, lng: -0.12574, population: 8961989, weight: 140, flexDesk: 310, postal: ['EC1V #@@'],
    zones: [
      z('Shoreditch', 51.5260, -0.0780, ['Great Eastern Street', 'Shoreditch High Street', 'Old Street'], ['EC2A #@@', 'E1 6@@']),
      z('Soho', 51.5136, -0.1365, ['Wardour Street', 'Dean Street', 'Oxford Street'], ['W1D #@@', 'W1F #@@']),
      z('Clerkenwell', 51.5230, -0.1050, ['Clerkenwell Road', 'Farringdon Road', 'Goswell Road'], ['EC1R #@@', 'EC1V #@@']),
      z('King\'s Cross', 51.5320, -0.1240, ['Euston Road', 'Caledonian Road', 'Pentonville Road'], ['N1C #@@', 'N1 9@@']),
      z('Canary Wharf', 51.5054, -0.0235, ['Canada Square', 'Westferry Road'], ['E14 #@@']),
      z('Southwark', 51.5035, -0.0900, ['Southwark Street', 'Borough High Street', 'Blackfriars Road'], ['SE1 #@@']),
      z('Camden Town', 51.5390, -0.1426, ['Camden High Street', 'Chalk Farm Road'], ['NW1 #@@']),
      z('Holborn', 51.5175, -0.1200, ['High Holborn', 'Kingsway', 'Tottenham Court Road'], ['WC1V #@@', 'WC2B #@@']),
    ],
    streets: ['City Road'],
    intro: {
      en: 'London is Europe\'s largest flexible-office market: creative studios in Shoreditch and Clerkenwell, members\' clubs in Soho and corporate floors in Canary Wharf.',
      de: 'London ist Europas größter Markt für flexible Büros: Kreativstudios in Shoreditch und Clerkenwell, Members\' Clubs in Soho und Firmenetagen in Canary Wharf.',
      es: 'Londres es el mayor mercado de oficinas flexibles de Europa: estudios creativos en Shoreditch y Clerkenwell, clubes privados en Soho y plantas corporativas en Canary Wharf.',
    },
  },
  {
    geonameId: 2643123, country: 'GB', names: { en: 'Manchester', de: 'Manchester', es: 'Mánchester' },
    lat: 53.48095, lng: -2.23743, population: 395515, weight: 30, flexDesk: 205, postal: ['M1 #@@'],
    zones: [
      z('Northern Quarter', 53.4840, -2.2360, ['Oldham Street', 'Tib Street', 'Hilton Street'], ['M1 #@@', 'M4 1@@']),
      z('Spinningfields', 53.4800, -2.2520, ['Deansgate', 'Hardman Street'], ['M3 #@@']),
      z('Ancoats', 53.4850, -2.2270, ['Great Ancoats Street', 'Blossom Street'], ['M4 #@@']),
    ],
    streets: ['Portland Street', 'Mosley Street'],
  },
  {
    geonameId: 2650225, country: 'GB', names: { en: 'Edinburgh', de: 'Edinburgh', es: 'Edimburgo' },
    lat: 55.95206, lng: -3.19648, population: 464990, weight: 20, flexDesk: 215, postal: ['EH1 #@@'],
    zones: [
      z({ en: 'Old Town', de: 'Altstadt', es: 'Ciudad Vieja' }, 55.9500, -3.1880, ['High Street', 'Cowgate'], ['EH1 #@@']),
      z({ en: 'New Town', de: 'Neustadt', es: 'Ciudad Nueva' }, 55.9550, -3.1970, ['George Street', 'Queen Street', 'Princes Street'], ['EH2 #@@']),
      z('Leith', 55.9750, -3.1720, ['Constitution Street', 'Leith Walk'], ['EH6 #@@']),
    ],
    streets: [],
  },
  // ---------------------------------------------------------------- United States
  {
    geonameId: 5128581, country: 'US', names: { en: 'New York', de: 'New York', es: 'Nueva York' },
    lat: 40.71427, lng: -74.00597, population: 8804190, weight: 120, flexDesk: 480, postal: ['100##'],
    zones: [
      z('Midtown', 40.7549, -73.9840, ['Fifth Avenue', 'Madison Avenue', 'West 40th Street'], ['10018', '10036', '10017']),
      z('Financial District', 40.7075, -74.0113, ['Wall Street', 'Broad Street', 'Water Street'], ['10004', '10005']),
      z('SoHo', 40.7233, -74.0030, ['Broadway', 'Spring Street'], ['10012', '10013']),
      z('Chelsea', 40.7465, -74.0014, ['West 23rd Street', 'Tenth Avenue'], ['10011']),
      z({ en: 'Flatiron District', de: 'Flatiron District', es: 'Distrito Flatiron' }, 40.7410, -73.9897, ['Park Avenue South', 'West 21st Street'], ['10010']),
      z('Williamsburg', 40.7081, -73.9571, ['Bedford Avenue', 'Wythe Avenue'], ['11211', '11249']),
      z('DUMBO', 40.7033, -73.9881, ['Water Street', 'Front Street'], ['11201']),
      z('Hudson Yards', 40.7536, -74.0008, ['West 33rd Street', 'Hudson Boulevard'], ['10001']),
    ],
    streets: ['Lexington Avenue'],
    intro: {
      en: 'New York\'s flexible offices range from Midtown towers and the Financial District to converted lofts in SoHo, Williamsburg and DUMBO.',
      de: 'New Yorks flexible Büros reichen von den Türmen in Midtown und dem Financial District bis zu umgebauten Lofts in SoHo, Williamsburg und DUMBO.',
      es: 'Las oficinas flexibles de Nueva York van desde las torres de Midtown y el Distrito Financiero hasta los lofts reconvertidos de SoHo, Williamsburg y DUMBO.',
    },
  },
  {
    geonameId: 5391959, country: 'US', tz: 'us-pacific', names: same('San Francisco'),
    lat: 37.77493, lng: -122.41942, population: 864816, weight: 50, flexDesk: 420, postal: ['941##'],
    zones: [
      z('SoMa', 37.7785, -122.4056, ['Howard Street', 'Folsom Street', 'Third Street'], ['94103', '94105', '94107']),
      z({ en: 'Financial District', de: 'Financial District', es: 'Distrito Financiero' }, 37.7946, -122.3999, ['Montgomery Street', 'Sansome Street', 'Market Street'], ['94104', '94111']),
      z({ en: 'Mission District', de: 'Mission District', es: 'Barrio de la Misión' }, 37.7599, -122.4148, ['Valencia Street', 'Mission Street'], ['94110']),
      z('Hayes Valley', 37.7759, -122.4245, ['Hayes Street', 'Octavia Street'], ['94102']),
      z('Dogpatch', 37.7602, -122.3890, ['Tennessee Street', 'Minnesota Street'], ['94107']),
    ],
    streets: [],
  },
  {
    geonameId: 4671654, country: 'US', tz: 'us-central', names: same('Austin'),
    lat: 30.26715, lng: -97.74306, population: 961855, weight: 30, flexDesk: 300, postal: ['787##'],
    zones: [
      z('Downtown', 30.2672, -97.7431, ['Congress Avenue', 'West 2nd Street'], ['78701']),
      z('East Austin', 30.2630, -97.7230, ['East 6th Street', 'East Cesar Chavez Street'], ['78702']),
      z('South Congress', 30.2480, -97.7500, ['South Congress Avenue', 'South 1st Street'], ['78704']),
    ],
    streets: ['Burnet Road'],
  },
  {
    geonameId: 4164138, country: 'US', names: same('Miami'),
    lat: 25.77427, lng: -80.19366, population: 442241, weight: 35, flexDesk: 340, postal: ['331##'],
    zones: [
      z('Brickell', 25.7617, -80.1918, ['Brickell Avenue', 'South Miami Avenue'], ['33131', '33130']),
      z('Wynwood', 25.8010, -80.1990, ['NW 2nd Avenue', 'NW 25th Street'], ['33127']),
      z('Downtown', 25.7743, -80.1937, ['Biscayne Boulevard', 'Flagler Street'], ['33132', '33128']),
      z({ en: 'Little Havana', de: 'Little Havana', es: 'La Pequeña Habana' }, 25.7650, -80.2190, ['SW 8th Street'], ['33135']),
    ],
    streets: [],
  },
  // ---------------------------------------------------------------- Switzerland
  {
    geonameId: 2657896, country: 'CH', names: { en: 'Zurich', de: 'Zürich', es: 'Zúrich' },
    lat: 47.36667, lng: 8.55, population: 341730, weight: 45, flexDesk: 510, postal: ['80##'],
    zones: [
      z({ en: 'Old Town', de: 'Altstadt', es: 'Casco antiguo' }, 47.3717, 8.5423, ['Bahnhofstrasse', 'Limmatquai'], ['8001']),
      z({ en: 'Zurich West', de: 'Zürich-West', es: 'Zúrich Oeste' }, 47.3890, 8.5170, ['Hardstrasse', 'Pfingstweidstrasse', 'Josefstrasse'], ['8005']),
      z('Enge', 47.3630, 8.5310, ['Brandschenkestrasse', 'Seestrasse'], ['8002']),
      z('Oerlikon', 47.4110, 8.5440, ['Thurgauerstrasse', 'Schaffhauserstrasse'], ['8050']),
      z('Seefeld', 47.3560, 8.5520, ['Seefeldstrasse', 'Dufourstrasse'], ['8008']),
      z('Wiedikon', 47.3700, 8.5190, ['Badenerstrasse', 'Birmensdorferstrasse'], ['8003', '8004']),
    ],
    streets: ['Langstrasse'],
    intro: {
      en: 'Zurich is one of the most expensive places in the world to rent a desk; coworking spaces concentrate in the old town, Enge and the former industrial district of Zurich West.',
      de: 'Zürich gehört zu den teuersten Orten der Welt für einen Schreibtisch; Coworking-Spaces konzentrieren sich auf die Altstadt, die Enge und das ehemalige Industriequartier Zürich-West.',
      es: 'Zúrich es uno de los lugares más caros del mundo para alquilar un puesto; los coworkings se concentran en el casco antiguo, Enge y el antiguo barrio industrial de Zúrich Oeste.',
    },
  },
  {
    geonameId: 2660646, country: 'CH', names: { en: 'Geneva', de: 'Genf', es: 'Ginebra' },
    lat: 46.20222, lng: 6.14569, population: 183981, weight: 20, flexDesk: 480, postal: ['120#'],
    zones: [
      z('Eaux-Vives', 46.2020, 6.1600, ['Rue des Eaux-Vives', 'Rue du Rhône'], ['1207']),
      z('Plainpalais', 46.1960, 6.1420, ['Boulevard Carl-Vogt', 'Rue de Carouge'], ['1205']),
      z('Pâquis', 46.2120, 6.1480, ['Rue de Lausanne', 'Rue de Berne'], ['1201', '1202']),
    ],
    streets: ['Rue de la Servette'],
  },
  {
    geonameId: 2661604, country: 'CH', names: { en: 'Basel', de: 'Basel', es: 'Basilea' },
    lat: 47.55839, lng: 7.57327, population: 164488, weight: 15, flexDesk: 400, postal: ['40##'],
    zones: [
      z('Grossbasel', 47.5580, 7.5880, ['Freie Strasse', 'Steinenvorstadt', 'Aeschenvorstadt'], ['4051']),
      z('Kleinbasel', 47.5630, 7.5950, ['Clarastrasse', 'Rheingasse'], ['4058']),
      z('Gundeldingen', 47.5420, 7.5940, ['Güterstrasse'], ['4053']),
    ],
    streets: [],
  },
  {
    geonameId: 2659994, country: 'CH', names: { en: 'Lausanne', de: 'Lausanne', es: 'Lausana' },
    lat: 46.516, lng: 6.63282, population: 116751, weight: 0, fixedSpaces: 2, flexDesk: 420, postal: ['100#'],
    zones: [z('Flon', 46.5210, 6.6290, ['Rue Centrale', 'Rue de Genève'], ['1003'])],
    streets: ['Avenue de la Gare'],
  },
  // ---------------------------------------------------------------- Venezuela
  {
    geonameId: 3646738, country: 'VE', names: same('Caracas'),
    lat: 10.48801, lng: -66.87919, population: 3000000, weight: 25, flexDesk: 50000, postal: ['10##'],
    zones: [
      z('Las Mercedes', 10.4810, -66.8600, ['Avenida Principal de Las Mercedes', 'Calle París'], ['1060']),
      z('Altamira', 10.4960, -66.8500, ['Avenida Luis Roche', 'Avenida San Juan Bosco'], ['1060']),
      z('El Rosal', 10.4880, -66.8620, ['Avenida Venezuela', 'Avenida Francisco de Miranda'], ['1060']),
      z('Los Palos Grandes', 10.4990, -66.8440, ['Avenida Andrés Bello', 'Avenida Francisco de Miranda'], ['1060']),
      z('La Castellana', 10.5010, -66.8550, ['Avenida Blandín', 'Avenida Eugenio Mendoza'], ['1060']),
      z('Sabana Grande', 10.4920, -66.8770, ['Bulevar de Sabana Grande', 'Avenida Casanova'], ['1050']),
    ],
    streets: ['Avenida Libertador'],
    intro: {
      en: 'Caracas\' coworking spaces gather in the east of the city, around Las Mercedes, El Rosal and Altamira; prices are published in bolívares and move quickly.',
      de: 'Die Coworking-Spaces von Caracas liegen vor allem im Osten der Stadt, um Las Mercedes, El Rosal und Altamira; die Preise werden in Bolívares veröffentlicht und ändern sich schnell.',
      es: 'Los coworkings de Caracas se agrupan en el este de la ciudad, en torno a Las Mercedes, El Rosal y Altamira; los precios se publican en bolívares y cambian con rapidez.',
    },
  },
  {
    geonameId: 3625549, country: 'VE', names: same('Valencia'),
    lat: 10.16202, lng: -68.00765, population: 1385083, weight: 12, flexDesk: 38000, postal: ['20##'],
    zones: [
      z('El Viñedo', 10.2050, -68.0050, ['Avenida Bolívar Norte', 'Avenida Monseñor Adams'], ['2001']),
      z('Prebo', 10.2150, -68.0100, ['Avenida Andrés Eloy Blanco'], ['2001']),
    ],
    streets: ['Avenida Cedeño'],
  },
  {
    geonameId: 3633009, country: 'VE', names: same('Maracaibo'),
    lat: 10.66663, lng: -71.61245, population: 1495200, weight: 0, fixedSpaces: 2, flexDesk: 35000, postal: ['4001', '4002'],
    zones: [],
    streets: ['Avenida 5 de Julio', 'Avenida Bella Vista'],
  },
  // ---------------------------------------------------------------- United Arab Emirates
  {
    geonameId: 292223, country: 'AE', names: { en: 'Dubai', de: 'Dubai', es: 'Dubái' },
    lat: 25.2048, lng: 55.2708, population: 3478300, weight: 60, flexDesk: 1500, postal: [],
    zones: [
      z({ en: 'Downtown Dubai', de: 'Downtown Dubai', es: 'Centro de Dubái' }, 25.1972, 55.2744, ['Sheikh Mohammed bin Rashid Boulevard', 'Sheikh Zayed Road']),
      z({ en: 'Dubai Marina', de: 'Dubai Marina', es: 'Dubai Marina' }, 25.0805, 55.1403, ['Al Marsa Street', 'King Salman bin Abdulaziz Al Saud Street']),
      z('Business Bay', 25.1860, 55.2650, ['Marasi Drive', 'Al Khail Road']),
      z('DIFC', 25.2110, 55.2820, ['Financial Centre Road', 'Al Mustaqbal Street']),
      z('Jumeirah Lake Towers', 25.0693, 55.1413, ['Cluster Road', 'Sheikh Zayed Road']),
      z('Deira', 25.2697, 55.3095, ['Baniyas Road', 'Al Maktoum Road']),
      z('Al Quoz', 25.1380, 55.2280, ['Al Khail Road', 'Al Quoz Road']),
      z('Dubai Internet City', 25.0950, 55.1580, ['Al Sufouh Road', 'Sheikh Zayed Road']),
    ],
    streets: ['Al Wasl Road', 'Jumeirah Beach Road'],
    intro: {
      en: 'Dubai\'s business centres and coworking spaces serve free-zone companies from DIFC and Business Bay to Dubai Marina; many offices come with a trade-licence address.',
      de: 'Dubais Business Center und Coworking-Spaces bedienen Freihandelszonen-Firmen von DIFC und Business Bay bis Dubai Marina; viele Büros kommen mit einer Adresse für die Gewerbelizenz.',
      es: 'Los centros de negocios y coworkings de Dubái atienden a empresas de zona franca desde DIFC y Business Bay hasta Dubai Marina; muchas oficinas incluyen domicilio para la licencia comercial.',
    },
  },
  {
    geonameId: 292968, country: 'AE', names: { en: 'Abu Dhabi', de: 'Abu Dhabi', es: 'Abu Dabi' },
    lat: 24.45118, lng: 54.39696, population: 1807000, weight: 25, flexDesk: 1300, postal: [],
    zones: [
      z({ en: 'Al Maryah Island', de: 'Al Maryah Island', es: 'Isla Al Maryah' }, 24.5010, 54.3900, ['Al Falah Street', 'Al Maryah Street']),
      z({ en: 'Al Reem Island', de: 'Al Reem Island', es: 'Isla Al Reem' }, 24.4960, 54.4040, ['Al Reem Street', 'Tamouh Street']),
      z('Al Markaziyah', 24.4890, 54.3560, ['Corniche Road', 'Hamdan Bin Mohammed Street']),
      z('Khalifa City', 24.4200, 54.5800, ['Al Khaleej Al Arabi Street']),
    ],
    streets: ['Khalifa Bin Zayed the First Street'],
  },
];
