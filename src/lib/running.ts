/** A svc the library started, in this process or as a child: where it is, and how to stop it. */
export interface Running {
  appUrl: string;
  pid: number;
  stop(): Promise<void>;
}
