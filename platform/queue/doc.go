// Package queue is Pressroom's contract with Asynq on Redis: the Redis settings, the queue names of
// each consuming service with their weights, Job (a task described as data, so it can wait in the
// outbox table before it reaches Redis), the server constructor with a short task-check interval
// and graceful shutdown, the logging middleware, and Rescue, which hands a dead server's running tasks
// out again within seconds instead of Asynq's minute and a half. Task types and their handlers live with the
// feature that owns them, not here.
//
// Every service consumes its own three queues, "<service>.interactive" (a seller is waiting),
// "<service>.default" and "<service>.bulk", weighted 6:3:1 so bulk work never starves interactive
// work. Queues are per service because Asynq routes by queue: a renderer must never be handed a
// task only the worker can run.
package queue
