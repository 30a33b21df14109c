/**
 * The site's enquiry forms: /{locale}/contact and /{locale}/space/{slug}/enquiry (the form of the
 * space page posts there). A post goes through the lead service as /v1/leads/* do (the same
 * schema, rate limit, challenge, idempotency and outbox) and answers 303 to the confirmation
 * page, or shows the form again with what was typed and each problem beside its field. Nothing
 * here is shared by caches: a form carries a token of its own (enquiry-form.ts).
 */
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LOCALES, type Locale } from '../../contract/common.ts';
import { REFERENCE_PATTERN, type LeadEndpoint } from '../../contract/leads.ts';
import type { PropertyDetail } from '../../contract/catalog.ts';
import type { LoadedBuild } from '../loading/load.ts';
import { citationPath } from '../http/citation.ts';
import { exceededLimit } from '../http/rate-limit.ts';
import { refuseDamaged } from '../http/route.ts';
import { ApiError, RETRY_UNAVAILABLE_AFTER_S } from '../http/problems.ts';
import { LeadRefusedError } from '../leads/service.ts';
import { submitLead } from '../leads/submit.ts';
import { contactPath, formView, readForm, sentPath, spaceEnquiryPath, type FormState } from './enquiry-form.ts';
import { renderPage, renderPageTwin } from './pages.ts';
import { MARKDOWN_TYPE, twinError, twinLink, twinPath } from './markdown-twins.ts';
import { STRINGS } from './strings.ts';

const HTML_TYPE = 'text/html; charset=utf-8';
const SLUG = /^[a-z0-9-]{1,200}$/;

interface Space { slug: string; title: string; path: string }

function spaceOf(build: LoadedBuild, locale: Locale, slug: string): Space | undefined {
  const i = SLUG.test(slug) ? build.engine.indexOf(slug) : undefined;
  if (i === undefined) return undefined;
  const { title } = JSON.parse(build.engine.detailJson(i, locale)) as PropertyDetail;
  return { slug, title, path: citationPath(locale, { kind: 'space', slug, title }) };
}

const alternates = (locale: Locale, path: (l: Locale) => string) =>
  LOCALES.map((l) => ({ locale: l, name: STRINGS[l].languageName, href: path(l), current: l === locale }));

/** Which status and message answer a refusal of the lead service. */
const REFUSALS = {
  CHALLENGE_FAILED: { status: 403, message: 'challengeFailed' },
  IDEMPOTENCY_KEY_CONFLICT: { status: 422, message: 'conflict' },
  UPSTREAM_UNAVAILABLE: { status: 502, message: 'unavailable' },
} as const;

export async function installEnquiries(app: FastifyInstance) {
  /** The space of a slug; a damaged record of it is refused as every page refuses one. */
  const spaceIn = (request: FastifyRequest, build: LoadedBuild, locale: Locale, slug: string) => {
    try {
      return spaceOf(build, locale, slug);
    } catch (err) {
      return refuseDamaged(app, request, build)(err);
    }
  };

  await app.register(async (scope) => {
    // urlencoded bodies for these routes only: the API's lead routes take JSON alone
    await scope.register(formbody);

    for (const locale of LOCALES) {
      const t = STRINGS[locale].enquiry;
      const siteKey = app.config.leads.challengeSiteKey;

      /** The form page of `kind` (for a space: the form alone), in `status`, with `state`. */
      const formPage = (reply: FastifyReply, build: LoadedBuild, kind: LeadEndpoint, space: Space | undefined, status: number, state?: FormState) => {
        const action = space ? spaceEnquiryPath(locale, space.slug) : contactPath(locale);
        const form = formView(kind, locale, action, siteKey, state);
        const title = space ? t.spaceTitle(space.title) : t.contactTitle;
        const html = renderPage({ build, config: app.config, locale }, space ? 'enquiry' : 'contact', {
          title: form.summary.length ? t.errorTitle(title) : title,
          description: space ? t.spaceLead(space.title) : t.contactLead,
          alternates: alternates(locale, (l) => (space ? spaceEnquiryPath(l, space.slug) : contactPath(l))),
          form,
          space,
        });
        return reply.code(status).type(HTML_TYPE).send(html);
      };

      /** The form with what was typed and the limit's wait (Retry-After is set). */
      const overLimit = (reply: FastifyReply, build: LoadedBuild, kind: LeadEndpoint, space: Space | undefined, submission: ReturnType<typeof readForm>) => {
        const minutes = Math.ceil(Number(reply.getHeader('retry-after')) / 60);
        return formPage(reply, build, kind, space, 429, { values: submission.values, formErrors: [t.rateLimited(minutes)], token: submission.token });
      };

      const submit = (kind: LeadEndpoint) => async (request: FastifyRequest, reply: FastifyReply) => {
        const { build } = app.catalog.current();
        const slug = (request.params as { slug?: string }).slug;
        const space = slug === undefined ? undefined : spaceIn(request, build, locale, slug);
        if (slug !== undefined && !space) return reply.callNotFound();
        const submission = readForm(kind, request.body, locale, space?.slug);
        const limited = exceededLimit(request);
        if (limited) {
          reply.header('retry-after', String(limited.resetSeconds));
          return overLimit(reply, build, kind, space, submission);
        }
        if (!submission.ok) return formPage(reply, build, kind, space, 400, submission.state);
        try {
          const result = await submitLead(request, reply, build.leadRouting, { endpoint: kind, body: submission.body, idempotencyKey: submission.idempotencyKey });
          return reply.code(303).header('location', sentPath(locale, result.body.data.reference, space?.slug)).send();
        } catch (err) {
          // over the enquiry limit (admitEnquiry set Retry-After): the form again, with what was typed
          if (err instanceof ApiError && err.code === 'RATE_LIMITED') return overLimit(reply, build, kind, space, submission);
          if (!(err instanceof LeadRefusedError)) return refuseDamaged(app, request, build)(err);
          const refusal = REFUSALS[err.code];
          if (refusal.status === 502) reply.header('retry-after', String(RETRY_UNAVAILABLE_AFTER_S));
          // after a conflict the form gets a new token: sending it again makes a new enquiry
          const token = err.code === 'IDEMPOTENCY_KEY_CONFLICT' ? undefined : submission.token;
          return formPage(reply, build, kind, space, refusal.status, { values: submission.values, formErrors: [t[refusal.message]], token });
        }
      };

      const form = (kind: LeadEndpoint) => (request: FastifyRequest, reply: FastifyReply) => {
        const { build } = app.catalog.current();
        const slug = (request.params as { slug?: string }).slug;
        const space = slug === undefined ? undefined : spaceIn(request, build, locale, slug);
        if (slug !== undefined && !space) return reply.callNotFound();
        return formPage(reply.header('link', twinLink(app.config.siteUrl, request.url)), build, kind, space, 200);
      };

      /** The form's Markdown twin: its fields, where a person sends it, and the API operation an app uses. */
      const formTwin = (kind: LeadEndpoint) => (request: FastifyRequest, reply: FastifyReply) => {
        const { build } = app.catalog.current();
        const slug = (request.params as { slug?: string }).slug;
        const space = slug === undefined ? undefined : spaceIn(request, build, locale, slug);
        if (slug !== undefined && !space) return twinError(reply, locale, app.config.siteUrl, 404);
        const action = space ? spaceEnquiryPath(locale, space.slug) : contactPath(locale);
        const markdown = renderPageTwin({ build, config: app.config, locale }, 'enquiry', {
          title: space ? t.spaceTitle(space.title) : t.contactTitle,
          lead: space ? t.spaceLead(space.title) : t.contactLead,
          alternates: alternates(locale, (l) => (space ? spaceEnquiryPath(l, space.slug) : contactPath(l))),
          form: formView(kind, locale, action, siteKey),
          space,
          apiPath: `${app.config.baseUrl}/v1/leads/${kind}`,
        });
        return reply.type(MARKDOWN_TYPE).send(markdown);
      };

      const posting = { cache: 'no-store' as const, leadRateLimit: true, answersOverLimit: true };
      scope.route({ method: 'GET', url: contactPath(locale), config: { cache: 'no-store' }, handler: form('contact') });
      scope.route({ method: 'POST', url: contactPath(locale), config: posting, handler: submit('contact') });
      scope.route({ method: 'GET', url: spaceEnquiryPath(locale, ':slug'), config: { cache: 'no-store' }, handler: form('inquiry') });
      scope.route({ method: 'GET', url: twinPath(contactPath(locale)), config: { cache: 'no-store' }, handler: formTwin('contact') });
      scope.route({ method: 'GET', url: twinPath(spaceEnquiryPath(locale, ':slug')), config: { cache: 'no-store' }, handler: formTwin('inquiry') });
      scope.route({ method: 'POST', url: spaceEnquiryPath(locale, ':slug'), config: posting, handler: submit('inquiry') });

      scope.route({
        method: 'GET',
        url: sentPath(locale, '').split('?')[0],
        config: { cache: 'no-store' },
        handler: async (request, reply) => {
          const { build } = app.catalog.current();
          const query = request.query as { reference?: unknown; space?: unknown };
          const reference = typeof query.reference === 'string' && REFERENCE_PATTERN.test(query.reference) ? query.reference : undefined;
          const space = typeof query.space === 'string' ? spaceIn(request, build, locale, query.space) : undefined;
          if (!reference || (query.space !== undefined && !space)) return reply.callNotFound();
          const forwarded = space && Boolean((await build.leadRouting.get(space.slug).catch(refuseDamaged(app, request, build)))?.enquiryEmail);
          const html = renderPage({ build, config: app.config, locale }, 'enquiry-sent', {
            title: t.sentTitle,
            alternates: alternates(locale, (l) => sentPath(l, reference, space?.slug)),
            reference,
            space,
            forwarded,
          });
          return reply.type(HTML_TYPE).send(html);
        },
      });
    }
  });
}
