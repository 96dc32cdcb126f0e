/* A shared object that is not a gpuperf plugin. */
int not_a_plugin(void);
int not_a_plugin(void) { return 1; }
