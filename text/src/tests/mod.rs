mod invisible;
