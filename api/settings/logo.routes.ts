/**
 * `POST /api/admin/shop-profile/logo`: the shop's logo through the product pictures' pipeline
 * (`../images`): checked by its content, re-encoded to WebP at the pipeline's widths under a new
 * name in the media store, served at `/media/`. The answer is the `Logo` to save in the profile;
 * nothing here changes the profile (see README.md).
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { shopProfileApi } from '../../domain/admin-profile.contract.js';
import { LIMITS } from '../../domain/catalogue.js';
import { ok } from '../../domain/envelope.js';
import { LOGO_VERSION, LOGO_WIDTHS } from '../../domain/shop-profile.js';
import { badRequest, HttpError } from '../http/errors.js';
import { route } from '../http/route.js';
import { newStem, processImage, removeImages } from '../images/images.js';

export const logoMessages = {
  notMultipart: 'Send the logo as multipart/form-data, in a file field called "logo".',
  noFile: 'Choose a picture for the logo.',
  field: (name: string) => `Unexpected file field "${name}": send the logo as "logo".`,
  tooLarge: `The logo is larger than ${LIMITS.imageBytes / 1024 / 1024} MB: choose a smaller picture.`,
  uploaded: 'Logo uploaded: save the profile to use it.',
} as const;

export default async function logoRoutes(app: FastifyInstance): Promise<void> {
  // This plugin's own multipart parser: one picture, the product pictures' size limit.
  await app.register(multipart, {
    limits: { fileSize: LIMITS.imageBytes, files: 1, fields: 4, fieldSize: 1024, parts: 5 },
    throwFileSizeLimit: true,
  });

  route(
    app,
    shopProfileApi.uploadLogo,
    async ({ request, reply }) => {
      if (!request.isMultipart()) throw new HttpError(415, logoMessages.notMultipart);
      let buffer: Buffer | null = null;
      try {
        for await (const part of request.parts()) {
          if (part.type !== 'file') continue;
          const bytes = await part.toBuffer();
          if (part.fieldname !== 'logo')
            throw badRequest(logoMessages.field(part.fieldname), { field: 'logo' });
          if (bytes.length) buffer = bytes;
        }
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
          throw new HttpError(413, logoMessages.tooLarge, { field: 'logo' });
        if (err instanceof HttpError || (err as { statusCode?: number }).statusCode) throw err;
        throw badRequest('The form data could not be read: it is not well-formed multipart/form-data.');
      }
      if (!buffer) throw badRequest(logoMessages.noFile, { field: 'logo' });
      let image: Awaited<ReturnType<typeof processImage>>;
      try {
        image = await processImage(buffer, app.media, 'The logo', newStem('logo'));
      } catch (err) {
        if (err instanceof HttpError) throw new HttpError(err.statusCode, err.message, { field: 'logo' });
        throw err;
      }
      // The version names the widths made (domain/shop-profile.ts): a pipeline that made others
      // would hand out URLs of files that do not exist.
      const widths = LOGO_WIDTHS[LOGO_VERSION] ?? [];
      if (image.widths.join() !== widths.join()) {
        await removeImages(app.media, [image]);
        throw new Error(
          `the pipeline made ${image.widths.join()} px, logo version ${LOGO_VERSION} is ${widths}`,
        );
      }
      reply.code(201);
      return ok({ stem: image.stem, version: LOGO_VERSION }, logoMessages.uploaded);
    },
    { bodyDescription: 'multipart/form-data: one image in the file field "logo", at most 5 MB' },
  );
}
