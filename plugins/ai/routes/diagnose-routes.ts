/** `POST /ai/diagnose`, `/ai/diagnose-stack`, `/ai/follow-up`. */
import { ErrorBody, InputError, defineRoute } from '../../../sdk/index.js';
import type { DiagnosisService } from '../diagnosis.js';
import {
  DiagnoseBody,
  DiagnoseResponse,
  DiagnoseStackBody,
  FollowUpBody,
  FollowUpResponse,
} from '../schemas.js';
import { PROCESS_NAME_REQUIRED } from '../errors.js';

/** The flag DUMB's dashboard reads before it offers its AI page: the diagnosis routes set it. */
const CAPABILITY = 'ai_diagnostics';

export function diagnoseRoute(service: DiagnosisService) {
  return defineRoute({
    method: 'POST',
    path: '/ai/diagnose',
    summary: 'Diagnose one process from its redacted bundle',
    tags: ['ai'],
    capability: CAPABILITY,
    schema: {
      body: DiagnoseBody,
      response: { 200: DiagnoseResponse, 404: ErrorBody, 502: ErrorBody },
    },
    handler: (request) => {
      if (request.body.process_name.trim() === '')
        throw new InputError(PROCESS_NAME_REQUIRED, 'process_name is required', {
          field: 'process_name',
        });
      return service.diagnose(request.body, request.signal);
    },
  });
}

export function diagnoseStackRoute(service: DiagnosisService) {
  return defineRoute({
    method: 'POST',
    path: '/ai/diagnose-stack',
    summary: 'Diagnose the whole stack from its redacted bundle',
    tags: ['ai'],
    capability: CAPABILITY,
    schema: { body: DiagnoseStackBody, response: { 200: DiagnoseResponse, 502: ErrorBody } },
    handler: (request) => service.diagnose(request.body, request.signal),
  });
}

export function followUpRoute(service: DiagnosisService) {
  return defineRoute({
    method: 'POST',
    path: '/ai/follow-up',
    summary: 'Ask a follow-up question reusing the session bundle',
    tags: ['ai'],
    capability: CAPABILITY,
    schema: { body: FollowUpBody, response: { 200: FollowUpResponse, 404: ErrorBody } },
    handler: (request) =>
      service.followUp(request.body.session_id, request.body.question, request.signal),
  });
}
