import { createRoute, OpenAPIHono, type z } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/app-env';
import type { RouteDeps } from '../../platform/family';
import { jsonResponse } from '../../platform/openapi/responses';
import {
  byId,
  changeErrors,
  deletedResponse,
  jsonBody,
  pageAnswer,
  readErrors,
  readOneErrors,
  recordAnswer,
  recordId,
  writeOnly,
} from '../common/routing';
import { taskRecords } from './present';
import {
  AppointmentCreateSchema,
  TaskCreateSchema,
  TaskListQuery,
  TaskListSchema,
  TaskSchema,
  TaskUpdateSchema,
} from './schema';
import { createTask, deleteTask, getTask, listTasks, updateTask } from './service';

const tags = ['Tasks and appointments'];

const listRoute = (path: '/tasks' | '/appointments') =>
  createRoute({
    method: 'get',
    path,
    operationId: path === '/tasks' ? 'listTasks' : 'listAppointments',
    tags,
    summary: path === '/tasks' ? 'Tasks and appointments, newest first' : 'Appointments only',
    request: { query: TaskListQuery },
    responses: { 200: jsonResponse(TaskListSchema, 'A page of tasks'), ...readErrors() },
  });

const createRouteFor = <S extends z.ZodType>(path: '/tasks' | '/appointments', schema: S) =>
  createRoute({
    method: 'post',
    path,
    operationId: path === '/tasks' ? 'createTask' : 'createAppointment',
    tags,
    middleware: writeOnly,
    summary:
      path === '/tasks'
        ? 'Add a task (appointment_type makes it an appointment)'
        : 'Schedule an appointment',
    request: { body: jsonBody(schema) },
    responses: { 201: jsonResponse(TaskSchema, 'The task'), ...changeErrors() },
  });

const getOne = createRoute({
  method: 'get',
  path: '/tasks/{id}',
  operationId: 'getTask',
  summary: 'One task or appointment',
  tags,
  ...byId,
  responses: { 200: jsonResponse(TaskSchema, 'The task'), ...readOneErrors() },
});
const update = createRoute({
  method: 'patch',
  path: '/tasks/{id}',
  operationId: 'updateTask',
  summary: 'Change a task; completed: true marks it done',
  tags,
  middleware: writeOnly,
  request: { body: jsonBody(TaskUpdateSchema) },
  ...byId,
  responses: { 200: jsonResponse(TaskSchema, 'The task as it now is'), ...changeErrors(true) },
});
const remove = createRoute({
  method: 'delete',
  path: '/tasks/{id}',
  operationId: 'deleteTask',
  summary: 'Delete a task for good',
  tags,
  middleware: writeOnly,
  ...byId,
  responses: { 200: deletedResponse(), ...changeErrors(true) },
});

export function taskRoutes(deps: RouteDeps) {
  const app = new OpenAPIHono<AppEnv>();
  for (const path of ['/tasks', '/appointments'] as const) {
    app.openapi(listRoute(path), (c) => {
      const ctx = c.get('ctx');
      const q = { ...c.req.valid('query'), onlyAppointments: path === '/appointments' };
      const list = path.slice(1);
      return pageAnswer(c, deps, list, q, (after) => listTasks(ctx, q, after), taskRecords);
    });
  }
  app.openapi(createRouteFor('/tasks', TaskCreateSchema), (c) =>
    recordAnswer(c, taskRecords, createTask(c.get('ctx'), c.req.valid('json')), 201),
  );
  app.openapi(createRouteFor('/appointments', AppointmentCreateSchema), (c) =>
    recordAnswer(c, taskRecords, createTask(c.get('ctx'), c.req.valid('json')), 201),
  );
  return app
    .openapi(getOne, (c) => recordAnswer(c, taskRecords, getTask(c.get('ctx'), recordId(c)), 200))
    .openapi(update, (c) => {
      const task = updateTask(c.get('ctx'), recordId(c), c.req.valid('json'));
      return recordAnswer(c, taskRecords, task, 200);
    })
    .openapi(remove, (c) => {
      const { id } = deleteTask(c.get('ctx'), recordId(c));
      return c.json({ id, object: 'task', deleted: true as const }, 200);
    });
}
