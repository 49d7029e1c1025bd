// Every operation of both documents has an operationId, named as a client calls it, unique, and
// kept here so that none changes silently: generated clients name their methods by them.
import { describe, expect, test } from 'vitest';
import { harness } from '../support/harness';

const V1 = {
  'GET /ping': 'getPing',
  'GET /me': 'getMe',
  'GET /users': 'listUsers',
  'GET /pipelines': 'listPipelines',
  'GET /stages': 'listStages',
  'GET /pipeline_stages': 'listPipelineStages',
  'GET /estimate_templates': 'listEstimateTemplates',
  'GET /jobs': 'listJobs',
  'POST /jobs': 'createJob',
  'GET /jobs/search': 'searchJobs',
  'GET /jobs/{id}': 'getJob',
  'PATCH /jobs/{id}': 'updateJob',
  'DELETE /jobs/{id}': 'deleteJob',
  'GET /jobs/{id}/notes': 'listJobNotes',
  'GET /jobs/{id}/files': 'listJobFiles',
  'GET /jobs/{id}/photos': 'listJobPhotos',
  'GET /jobs/{id}/tasks': 'listJobTasks',
  'GET /jobs/{id}/estimates': 'listJobEstimates',
  'GET /jobs/{id}/invoices': 'listJobInvoices',
  'GET /jobs/{id}/payments': 'listJobPayments',
  'GET /contacts': 'listContacts',
  'POST /contacts': 'createContact',
  'GET /contacts/search': 'searchContacts',
  'GET /contacts/{id}': 'getContact',
  'PATCH /contacts/{id}': 'updateContact',
  'DELETE /contacts/{id}': 'deleteContact',
  'GET /contacts/{id}/jobs': 'listContactJobs',
  'GET /tasks': 'listTasks',
  'POST /tasks': 'createTask',
  'GET /appointments': 'listAppointments',
  'POST /appointments': 'createAppointment',
  'GET /tasks/{id}': 'getTask',
  'PATCH /tasks/{id}': 'updateTask',
  'DELETE /tasks/{id}': 'deleteTask',
  'GET /estimates': 'listEstimates',
  'POST /estimates': 'createEstimate',
  'GET /estimates/{id}': 'getEstimate',
  'PATCH /estimates/{id}': 'updateEstimate',
  'GET /invoices': 'listInvoices',
  'POST /invoices': 'createInvoice',
  'GET /invoices/{id}': 'getInvoice',
  'PATCH /invoices/{id}': 'updateInvoice',
  'DELETE /invoices/{id}': 'deleteInvoice',
  'POST /invoices/{id}/mark_sent': 'markInvoiceSent',
  'POST /invoices/{id}/void': 'voidInvoice',
  'GET /payments': 'listPayments',
  'POST /payments': 'createPayment',
  'GET /payments/{id}': 'getPayment',
  'GET /notes': 'listNotes',
  'POST /notes': 'createNote',
  'GET /notes/{id}': 'getNote',
  'GET /files': 'listFiles',
  'POST /files': 'uploadFile',
  'GET /files/{id}': 'getFile',
  'GET /pins': 'listPins',
  'POST /pins': 'createPin',
  'GET /pins/{id}': 'getPin',
  'PATCH /pins/{id}': 'updatePin',
  'DELETE /pins/{id}': 'deletePin',
  'GET /storm_lists': 'listStormLists',
  'GET /storm_lists/{id}': 'getStormList',
  'GET /storm_lists/{id}/properties': 'listStormListProperties',
  'GET /hail_history': 'getHailHistory',
  'GET /webhooks': 'listWebhooks',
  'POST /webhooks': 'createWebhook',
  'GET /webhooks/samples/{event}': 'listWebhookSamples',
  'GET /webhooks/{id}': 'getWebhook',
  'DELETE /webhooks/{id}': 'deleteWebhook',
  'GET /events': 'listEvents',
  'POST /oauth/token': 'exchangeOAuthToken',
  'POST /oauth/revoke': 'revokeOAuthToken',
};

const ADMIN = {
  'POST /workspaces': 'createWorkspace',
  'GET /workspaces': 'listWorkspaces',
  'GET /workspaces/{id}': 'getWorkspace',
  'DELETE /workspaces/{id}': 'deleteWorkspace',
  'PATCH /workspaces/{id}': 'updateWorkspace',
  'POST /workspaces/{id}/keys': 'createWorkspaceKey',
  'DELETE /keys/{id}': 'revokeKey',
  'GET /clock': 'getClock',
  'POST /clock': 'moveClock',
  'GET /workspaces/{id}/clock': 'getWorkspaceClock',
  'POST /workspaces/{id}/clock': 'moveWorkspaceClock',
  'GET /requests': 'listRequests',
  'POST /faults': 'createFault',
  'GET /faults': 'listFaults',
  'DELETE /faults': 'clearFaults',
  'GET /faults/{id}': 'getFault',
  'DELETE /faults/{id}': 'deleteFault',
  'GET /snapshot': 'exportStore',
  'POST /snapshot': 'importStore',
  'GET /workspaces/{id}/snapshot': 'exportWorkspaceSnapshot',
  'PUT /workspaces/{id}/snapshot': 'restoreWorkspaceSnapshot',
  'GET /workspaces/{id}/bundle': 'getWorkspaceBundle',
  'POST /jobs/{id}/restore': 'restoreJob',
  'POST /contacts/{id}/restore': 'restoreContact',
  'GET /webhooks': 'listAdminWebhooks',
  'GET /webhooks/{id}/deliveries': 'listWebhookDeliveries',
  'POST /deliveries/{id}/resend': 'resendDelivery',
  'POST /webhooks/{id}/test': 'sendWebhookTest',
  'POST /webhooks/{id}/rotate_secret': 'rotateWebhookSecret',
  'POST /webhooks/{id}/enable': 'enableWebhook',
  'GET /notifications': 'listNotifications',
  'POST /estimates/{id}/send': 'sendEstimate',
  'POST /estimates/{id}/view': 'viewEstimate',
  'POST /estimates/{id}/sign': 'signEstimate',
  'POST /estimates/{id}/decline': 'declineEstimate',
  'POST /invoices/{id}/view': 'viewInvoice',
  'POST /invoices/{id}/bad_debt': 'writeOffInvoice',
  'POST /payments/{id}/refund': 'refundPayment',
  'PATCH /payments/{id}': 'setPaymentStatus',
  'POST /pins/{id}/convert': 'convertPin',
  'POST /workspaces/{id}/storm_lists': 'buildStormList',
  'POST /oauth/apps': 'createOAuthApp',
  'POST /oauth/authorize': 'authorizeOAuthApp',
  'GET /oauth/apps': 'listOAuthApps',
  'GET /workspaces/{id}/connections': 'listConnections',
  'DELETE /workspaces/{id}/connections/{cid}': 'deleteConnection',
};

type Operations = Record<string, Record<string, { operationId?: string }>>;

async function operationIds(base: '/v1' | '/__admin'): Promise<Record<string, string | undefined>> {
  const res = await harness().app.request(`${base}/openapi.json`);
  const paths = ((await res.json()) as { paths: Operations }).paths;
  const out: Record<string, string | undefined> = {};
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(item)) {
      out[`${method.toUpperCase()} ${path}`] = op.operationId;
    }
  }
  return out;
}

describe('operationIds', () => {
  test.each([
    ['/v1', V1],
    ['/__admin', ADMIN],
  ] as const)(
    'every operation of %s has its own, and they are the ones kept here',
    async (base, expected) => {
      const ids = await operationIds(base);
      expect(ids).toEqual(expected);
      const names = Object.values(ids);
      expect(new Set(names).size).toBe(names.length);
    },
  );
});
