#!/bin/sh
git log --oneline | wc -l
