test('svc answers with the workspace made for the run', async () => {
  const res = await fetch(`${process.env.SVC_BASE_URL}/ping`, {
    headers: { Authorization: `Bearer ${process.env.SVC_WRITE_KEY}` },
  });
  expect(res.status).toBe(200);
});
